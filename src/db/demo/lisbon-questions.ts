/**
 * Custom questions of Harbor Lisbon. The sunset sail carries the full set: every field type, both scopes,
 * required and optional answers, a question shown only for one occasion, and an inactive one.
 */
import type { AssignmentSpec, QuestionSpec } from './catalog-types.ts';

export const lisbonQuestions: QuestionSpec[] = [
  {
    key: 'day-phone',
    prompt: 'Mobile number the skipper can reach you on during the day',
    fieldType: 'input',
  },
  {
    key: 'occasion',
    prompt: 'Are you celebrating anything on board?',
    fieldType: 'single_select',
    options: ['No special occasion', 'Birthday', 'Anniversary', 'Marriage proposal'],
  },
  {
    key: 'proposal-plan',
    prompt: 'How can the crew help with the proposal? We will keep it secret.',
    fieldType: 'textarea',
  },
  {
    key: 'safety-rules',
    prompt: 'Please accept the sailing safety rules',
    fieldType: 'terms_and_conditions',
    terms: {
      label: 'I have read and accept the sailing safety rules and liability waiver',
      document: { slug: 'sailing-safety-rules', alt: 'Sailing safety rules and liability waiver (PDF)' },
      isOverrided: false,
    },
  },
  {
    key: 'passenger-name',
    prompt: 'Full name as on the passport or ID card (for the harbour master’s passenger list)',
    fieldType: 'input',
  },
  {
    key: 'can-swim',
    prompt: 'Can this guest swim?',
    fieldType: 'single_select',
    options: ['Yes', 'No'],
  },
  {
    key: 'dietary',
    prompt: 'Dietary requirements for the onboard snacks',
    fieldType: 'multiple_select',
    options: ['Vegetarian', 'Vegan', 'Gluten-free', 'Lactose-free', 'Nut allergy'],
  },
  {
    key: 'shoe-size',
    prompt: 'EU shoe size, to lend you deck shoes',
    fieldType: 'input',
  },
  {
    key: 'allergies',
    prompt: 'Any food allergies or intolerances the kitchen should know about?',
    fieldType: 'textarea',
  },
];

const sail = 'tagus-sunset-sail';

export const lisbonAssignments: AssignmentSpec[] = [
  { experience: sail, question: 'day-phone', isRequired: true, isActive: true, order: 1, scope: 'purchaser' },
  { experience: sail, question: 'occasion', isRequired: false, isActive: true, order: 2, scope: 'purchaser' },
  {
    experience: sail,
    question: 'proposal-plan',
    isRequired: false,
    isActive: true,
    order: 3,
    scope: 'purchaser',
    showWhen: { question: 'occasion', option: 'Marriage proposal' },
  },
  { experience: sail, question: 'safety-rules', isRequired: true, isActive: true, order: 4, scope: 'purchaser' },
  { experience: sail, question: 'passenger-name', isRequired: true, isActive: true, order: 5, scope: 'participant' },
  { experience: sail, question: 'can-swim', isRequired: true, isActive: true, order: 6, scope: 'participant' },
  { experience: sail, question: 'dietary', isRequired: false, isActive: true, order: 7, scope: 'participant' },
  // Deck shoes are no longer lent: the question stays configured but inactive.
  { experience: sail, question: 'shoe-size', isRequired: false, isActive: false, order: 8, scope: 'participant' },
  { experience: 'alfama-fado-night', question: 'allergies', isRequired: false, isActive: true, order: 1, scope: 'participant' },
  { experience: 'pastel-de-nata-workshop', question: 'allergies', isRequired: true, isActive: true, order: 1, scope: 'participant' },
];
