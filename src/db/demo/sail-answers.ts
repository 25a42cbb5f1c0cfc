/**
 * The answers a party gives the sunset sail's custom questions, as the checkout and join forms send
 * them: the purchaser's day phone, occasion and safety rules, each guest's name and whether they swim.
 * Validated with the domain's own rules, so the demo stores exactly what a real checkout would.
 */
import { validateAnswers, type ValidatedAnswers } from '../../domain/questions/answers.ts';
import type { QuestionSnapshot } from '../../domain/questions/questions.ts';
import { questionIds } from './questions.ts';

export interface SailGuest {
  firstName: string;
  lastName: string;
  canSwim: 'Yes' | 'No';
}

const q = questionIds('lisbon');
const choice = (question: string, label: string) => [{ key: q.option(question, label) }];

export function sailAnswers(
  questions: readonly QuestionSnapshot[],
  party: { phone: string; occasion: string; guests: readonly SailGuest[] },
): ValidatedAnswers {
  return validateAnswers({
    questions,
    purchaserResponses: [
      { questionId: q.question('day-phone'), answer: [{ value: party.phone }] },
      { questionId: q.question('occasion'), answer: choice('occasion', party.occasion) },
      { questionId: q.question('safety-rules'), answer: [{ value: 'true' }] },
    ],
    participants: party.guests.map((g) => ({
      responses: [
        { questionId: q.question('passenger-name'), answer: [{ value: `${g.firstName} ${g.lastName}` }] },
        { questionId: q.question('can-swim'), answer: choice('can-swim', g.canSwim) },
      ],
    })),
    fieldPrefix: '',
  });
}
