/**
 * Custom-question answers of one cart item, checked against the experience's active questions and
 * turned into what is stored with the booking: one answer per shown question of each respondent.
 *
 * - Responses name questions by `customQuestionId`; an unknown id, or a question of the other scope,
 *   is UNKNOWN_QUESTION. A question answered twice in one list is VALIDATION_FAILED.
 * - Purchaser-scope questions are answered once (by the purchaser), participant-scope ones by each
 *   participant. Required questions must be answered (terms: accepted) when shown: ANSWER_REQUIRED.
 * - A conditional question is shown when its `value_matches` conditions match (`all`: every one;
 *   `any` or unset: at least one) against the SAME respondent's answers. A participant question may
 *   depend on a purchaser question: it is then evaluated against the purchaser's answers. A condition
 *   never matches when its parent is inactive or unknown, hidden itself, part of a cycle, or (for a
 *   purchaser question) participant-scoped, since no single participant speaks for the purchaser.
 * - Answers to hidden questions are dropped, not checked. Shown optional questions left unanswered are
 *   stored as `[{ value: null }]`; an answer whose entries all lack both value and key is unanswered.
 * - Terms: "true" accepts (stored `true`), "false" declines (stored `false`; a required one is then
 *   ANSWER_REQUIRED). Text is trimmed: input up to 500 characters, textarea 2000 (INVALID_ANSWER).
 */
import type { AnswerValueJson, QuestionSnapshotJson } from '../shared/json-types.ts';
import { chosenKeys, isAccepted, normalizeAnswer, type AnswerValueInput } from './answer-values.ts';
import { DomainError, invalid } from '../shared/errors.ts';

/** One entry of `customQuestionResponses`. */
export interface QuestionResponse {
  questionId: string;
  answer?: readonly AnswerValueInput[] | null | undefined;
}

type Responses = readonly QuestionResponse[] | null | undefined;

export interface StoredAnswer {
  question: QuestionSnapshotJson;
  answer: AnswerValueJson[];
}

export interface ValidatedAnswers {
  purchaser: StoredAnswer[];
  /** One list per participant, in the input order. */
  participants: StoredAnswer[][];
}

export interface ValidateAnswersInput {
  /** The experience's active questions in display order (`customQuestionsByExperience`). */
  questions: readonly QuestionSnapshotJson[];
  /** The purchaser's `customQuestionResponses`; ignored when `purchaserIsFirstParticipant`. */
  purchaserResponses?: Responses;
  participants: ReadonlyArray<{ responses?: Responses }>;
  /**
   * Path of the cart item, e.g. `data.0`: participant errors name `data.0.participants.1.customQuestionResponses...`.
   * Empty when the participants are at the top of the body (a waitlist entry): `participants.1...`.
   */
  fieldPrefix: string;
  /** Path of the purchaser's list; default `purchaser.customQuestionResponses`. */
  purchaserField?: string | undefined;
  /**
   * No separate purchaser was sent: the first participant is the purchaser, and its list answers both
   * its participant questions and the purchaser questions.
   */
  purchaserIsFirstParticipant?: boolean | undefined;
  /**
   * Ids of the questions of the cart's other items. The purchaser answers every item's purchaser
   * questions in one list, so answers to these in the purchaser's list are skipped, not UNKNOWN_QUESTION.
   */
  otherItemQuestionIds?: ReadonlySet<string> | undefined;
}

type Scope = QuestionSnapshotJson['config']['scope'];
type Located = { response: QuestionResponse; field: string };

/** A respondent's list indexed by question id, refusing unknown ids, other scopes and repeats. */
function indexResponses(
  responses: Responses,
  listField: string,
  scopes: readonly Scope[],
  questionsById: ReadonlyMap<string, QuestionSnapshotJson>,
  skippable: ReadonlySet<string>,
): Map<string, Located> {
  const byId = new Map<string, Located>();
  (responses ?? []).forEach((response, index) => {
    const field = `${listField}.${index}`;
    const question = questionsById.get(response.questionId);
    if (!question || !scopes.includes(question.config.scope)) {
      if (skippable.has(response.questionId)) return;
      const why = question ? `is not a ${scopes.join(' or ')} question` : 'is not a question of this experience';
      throw new DomainError('UNKNOWN_QUESTION', `Question ${response.questionId} ${why}`, {
        field: `${field}.questionId`,
        questionId: response.questionId,
      });
    }
    if (byId.has(response.questionId)) throw invalid(`${field}.questionId`, `Question ${response.questionId} is answered twice`);
    byId.set(response.questionId, { response, field });
  });
  return byId;
}

interface Respondent {
  questions: readonly QuestionSnapshotJson[];
  responses: ReadonlyMap<string, Located>;
  /** Where ANSWER_REQUIRED points: the respondent's list. */
  listField: string;
  /** Option keys chosen by the purchaser, for participant questions with a purchaser parent. */
  outerKeys: (questionId: string) => string[];
}

/** The stored answers of one respondent: every shown question of its scope, in order. */
function answerRespondent({ questions, responses, listField, outerKeys }: Respondent): StoredAnswer[] {
  const own = new Map(questions.map((question) => [question.customQuestionId, question]));
  const answers = new Map<string, AnswerValueJson[] | null>();
  const shown = new Map<string, boolean>();
  const visiting = new Set<string>();

  const answerOf = (question: QuestionSnapshotJson): AnswerValueJson[] | null => {
    const id = question.customQuestionId;
    if (!answers.has(id)) {
      const located = responses.get(id);
      answers.set(id, located ? normalizeAnswer(question, located.response.answer, `${located.field}.answer`) : null);
    }
    return answers.get(id) ?? null;
  };
  const keysOf = (parentId: string): string[] => {
    const parent = own.get(parentId);
    if (!parent) return outerKeys(parentId);
    return isShown(parent) ? chosenKeys(answerOf(parent)) : [];
  };
  const isShown = (question: QuestionSnapshotJson): boolean => {
    const id = question.customQuestionId;
    const conditions = question.config.conditions ?? [];
    if (conditions.length === 0) return true;
    const known = shown.get(id);
    if (known !== undefined) return known;
    if (visiting.has(id)) return false;
    visiting.add(id);
    const met = (condition: (typeof conditions)[number]) => keysOf(condition.conditionKey).includes(condition.conditionValue);
    const result = question.config.conditionsMatchType === 'all' ? conditions.every(met) : conditions.some(met);
    visiting.delete(id);
    shown.set(id, result);
    return result;
  };

  return questions.filter(isShown).map((question) => {
    const answer = answerOf(question);
    if (question.config.isRequired && !isAccepted(question, answer)) {
      const why = question.fieldType === 'terms_and_conditions' ? 'must be accepted' : 'must be answered';
      throw new DomainError('ANSWER_REQUIRED', `Question "${question.prompt}" ${why}`, {
        field: listField,
        questionId: question.customQuestionId,
        prompt: question.prompt,
      });
    }
    return { question, answer: answer ?? [{ value: null }] };
  });
}

/** The item's answers to store, or the first problem found (purchaser first, then each participant). */
export function validateAnswers(input: ValidateAnswersInput): ValidatedAnswers {
  const active = input.questions.filter((question) => question.config.isActive);
  const questionsById = new Map(active.map((question) => [question.customQuestionId, question]));
  const ofScope = (scope: Scope) => active.filter((question) => question.config.scope === scope);
  const skippable = input.otherItemQuestionIds ?? new Set<string>();
  const prefix = input.fieldPrefix ? `${input.fieldPrefix}.` : '';
  const participantField = (index: number) => `${prefix}participants.${index}.customQuestionResponses`;

  const merged = input.purchaserIsFirstParticipant === true;
  const purchaserField = merged ? participantField(0) : (input.purchaserField ?? 'purchaser.customQuestionResponses');
  const purchaserList = merged ? input.participants[0]?.responses : input.purchaserResponses;
  const purchaserScopes: Scope[] = merged ? ['purchaser', 'participant'] : ['purchaser'];
  const purchaserIndex = indexResponses(purchaserList, purchaserField, purchaserScopes, questionsById, skippable);

  const participantIndexes = input.participants.map((participant, index) =>
    merged && index === 0
      ? purchaserIndex
      : indexResponses(participant.responses, participantField(index), ['participant'], questionsById, new Set()),
  );

  const purchaser = answerRespondent({
    questions: ofScope('purchaser'),
    responses: purchaserIndex,
    listField: purchaserField,
    outerKeys: () => [],
  });
  const purchaserKeys = new Map(purchaser.map((stored) => [stored.question.customQuestionId, chosenKeys(stored.answer)]));
  const participants = participantIndexes.map((responses, index) =>
    answerRespondent({
      questions: ofScope('participant'),
      responses,
      listField: participantField(index),
      outerKeys: (questionId) => purchaserKeys.get(questionId) ?? [],
    }),
  );
  return { purchaser, participants };
}
