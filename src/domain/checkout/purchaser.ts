/**
 * Who pays for a cart, and where the purchaser's answers come from. The body's `purchaser` when sent;
 * otherwise the first participant of the first item is the purchaser: its name and contact details,
 * and its `customQuestionResponses` answer the purchaser-scoped questions of every item (beside its
 * own participant questions).
 */
import { randomUUID } from 'node:crypto';
import type { QuestionSnapshotJson } from '../shared/json-types.ts';
import { validateAnswers, type ValidatedAnswers } from '../questions/answers.ts';
import type { CreatePaymentIntentInput } from './input.ts';

export interface PreparedPurchaser {
  /** One id for the whole checkout: every booking of the cart names the same person. */
  id: string;
  firstName: string;
  lastName: string;
  emailAddress: string | null;
  phoneNumber: string | null;
}

export function purchaserOf(input: CreatePaymentIntentInput): PreparedPurchaser {
  const person = input.purchaser ?? input.data[0]?.participants[0];
  if (!person) throw new RangeError('A cart has at least one item with one participant (checked before)');
  return {
    id: randomUUID(),
    firstName: person.firstName,
    lastName: person.lastName,
    emailAddress: person.emailAddress ?? null,
    phoneNumber: person.phoneNumber ?? null,
  };
}

const FIRST_PARTICIPANT_FIELD = 'data.0.participants.0.customQuestionResponses';

/**
 * Item `index`'s answers against `questions` (its experience's active questions). `otherItemQuestionIds`:
 * the questions of the cart's other items, which the purchaser's single list may answer too.
 */
export function answersOfItem(
  input: CreatePaymentIntentInput,
  index: number,
  questions: readonly QuestionSnapshotJson[],
  otherItemQuestionIds: ReadonlySet<string>,
): ValidatedAnswers {
  const item = input.data[index]!;
  const base = {
    questions,
    participants: item.participants.map((p) => ({ responses: p.customQuestionResponses })),
    fieldPrefix: `data.${index}`,
    otherItemQuestionIds,
  };
  if (input.purchaser) {
    return validateAnswers({
      ...base,
      purchaserResponses: input.purchaser.customQuestionResponses,
      purchaserField: 'purchaser.customQuestionResponses',
    });
  }
  if (index === 0) return validateAnswers({ ...base, purchaserIsFirstParticipant: true });
  const firstParticipant = input.data[0]?.participants[0];
  return validateAnswers({
    ...base,
    purchaserResponses: firstParticipant?.customQuestionResponses,
    purchaserField: FIRST_PARTICIPANT_FIELD,
  });
}
