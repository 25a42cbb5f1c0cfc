/**
 * T5's cart: two guests on the sunset sail (with the answers its required questions ask for, and an
 * optional one) and a family of three at the pastry workshop, two weeks ahead, quoted only.
 */
import { demoIds } from '../../src/db/seed/index.ts';
import { questionIds } from '../../src/db/seed/questions.ts';
import { dailyStartTimes, localDate } from '../../src/db/seed/sessions.ts';

const q = questionIds('lisbon');
const { tagusSunsetSail, pastelDeNataWorkshop } = demoIds.experiences;

/** The first daily session of a demo experience, `days` ahead, `YYYY-MM-DDTHH:MM` (Lisbon time). */
const session = (slug: string, days: number) => `${localDate(new Date(), 'Europe/Lisbon', days)}T${dailyStartTimes[slug]![0]}`;

const text = (key: string, value: string) => ({ questionId: q.question(key), answer: [{ value }] });
const pick = (key: string, ...labels: string[]) => ({ questionId: q.question(key), answer: labels.map((value) => ({ value, key: q.option(key, value) })) });

const sailor = (firstName: string, priceTierName: string, swims: 'Yes' | 'No') => ({
  firstName,
  lastName: 'Quote',
  priceTierName,
  customQuestionResponses: [text('passenger-name', `${firstName} Quote`), pick('can-swim', swims), pick('dietary', 'Vegetarian')],
});

const baker = (firstName: string, priceTierName: string) => ({
  firstName,
  lastName: 'Quote',
  priceTierName,
  customQuestionResponses: [text('allergies', 'None')],
});

export const quoteInput = {
  getOnlyTotalNetAmount: true,
  purchaser: {
    firstName: 'Ana',
    lastName: 'Quote',
    emailAddress: 'ana@bench.test',
    customQuestionResponses: [text('day-phone', '+351 910 000 001'), pick('occasion', 'Birthday'), text('safety-rules', 'true')],
  },
  data: [
    { experienceId: tagusSunsetSail, sessionTime: session('tagus-sunset-sail', 14), participants: [sailor('Ana', 'Adult', 'Yes'), sailor('Rui', 'Senior', 'No')] },
    {
      experienceId: pastelDeNataWorkshop,
      sessionTime: session('pastel-de-nata-workshop', 14),
      participants: [baker('Eva', 'Adult'), baker('Tom', 'Adult'), baker('Mia', 'Child')],
    },
  ],
};
