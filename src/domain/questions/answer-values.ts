/**
 * One custom-question answer as the client sent it, checked against its question and turned into the
 * values stored with the booking (the spec's AnswerValue): text trimmed, select options as
 * `{ value: <the question's label>, key }`, terms as a boolean.
 */
import type { AnswerValueJson, QuestionSnapshotJson } from '../shared/json-types.ts';
import { DomainError } from '../shared/errors.ts';

/** One entry of `customQuestionResponses[].answer`. */
export interface AnswerValueInput {
  value?: string | null | undefined;
  key?: string | null | undefined;
}

/** Longest text kept, in characters after trimming. */
export const maxTextLength = { input: 500, textarea: 2000 } as const;

const isBlank = (text: string | null | undefined) => text === null || text === undefined || text.trim() === '';

function refuse(question: QuestionSnapshotJson, field: string, why: string): DomainError {
  return new DomainError('INVALID_ANSWER', `Answer to "${question.prompt}" ${why}`, { field, questionId: question.customQuestionId });
}

type Entry = { entry: AnswerValueInput; index: number };

function textAnswer(question: QuestionSnapshotJson, entries: Entry[], field: string, limit: number): AnswerValueJson[] {
  const [only] = entries;
  if (!only || entries.length > 1) throw refuse(question, field, 'takes a single text value');
  const text = only.entry.value?.trim();
  if (text === undefined || text === '') throw refuse(question, `${field}.${only.index}.value`, 'needs a text value');
  if (text.length > limit) throw refuse(question, `${field}.${only.index}.value`, `is longer than ${limit} characters`);
  return [{ value: text }];
}

function selectAnswer(question: QuestionSnapshotJson, entries: Entry[], field: string): AnswerValueJson[] {
  if (question.fieldType === 'single_select' && entries.length > 1) throw refuse(question, field, 'takes exactly one option');
  const labels = new Map((question.options ?? []).map((option) => [option.key, option.value]));
  const chosen = new Set<string>();
  return entries.map(({ entry, index }) => {
    const key = entry.key ?? '';
    const label = labels.get(key);
    if (label === undefined)
      throw refuse(question, `${field}.${index}.key`, `uses ${key ? `the unknown option key ${key}` : 'no option key'}`);
    if (chosen.has(key)) throw refuse(question, `${field}.${index}.key`, `chooses option ${key} twice`);
    chosen.add(key);
    return { value: label, key };
  });
}

function termsAnswer(question: QuestionSnapshotJson, entries: Entry[], field: string): AnswerValueJson[] {
  const [only] = entries;
  if (!only || entries.length > 1) throw refuse(question, field, 'takes a single value, "true" or "false"');
  const text = only.entry.value?.trim().toLowerCase();
  if (text !== 'true' && text !== 'false') throw refuse(question, `${field}.${only.index}.value`, 'must be "true" or "false"');
  return [{ value: text === 'true' }];
}

/**
 * The stored form of an answer, or null when it was not answered (no entries, or only entries with
 * neither a value nor a key). Anything else that does not fit the question is INVALID_ANSWER naming
 * `field` (the response's `answer` path) or the offending entry below it.
 */
export function normalizeAnswer(
  question: QuestionSnapshotJson,
  answer: readonly AnswerValueInput[] | null | undefined,
  field: string,
): AnswerValueJson[] | null {
  const entries = (answer ?? [])
    .map((entry, index) => ({ entry, index }))
    .filter(({ entry }) => !(isBlank(entry.value) && isBlank(entry.key)));
  if (entries.length === 0) return null;
  switch (question.fieldType) {
    case 'input':
    case 'textarea':
      return textAnswer(question, entries, field, maxTextLength[question.fieldType]);
    case 'single_select':
    case 'multiple_select':
      return selectAnswer(question, entries, field);
    case 'terms_and_conditions':
      return termsAnswer(question, entries, field);
  }
}

/** Whether a stored answer satisfies a required question: present, and for terms, accepted. */
export function isAccepted(question: QuestionSnapshotJson, answer: AnswerValueJson[] | null): boolean {
  if (answer === null) return false;
  return question.fieldType !== 'terms_and_conditions' || answer[0]?.value === true;
}

/** The option keys an answer chose: what `value_matches` conditions look at. */
export function chosenKeys(answer: AnswerValueJson[] | null): string[] {
  return (answer ?? []).flatMap((entry) => (typeof entry.key === 'string' ? [entry.key] : []));
}
