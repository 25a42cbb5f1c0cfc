import type { QuestionCondition, QuestionSnapshotJson } from '../../src/domain/shared/json-types.ts';
import type { QuestionResponse } from '../../src/domain/questions/answers.ts';

export interface QuestionSpec {
  scope?: 'purchaser' | 'participant';
  required?: boolean;
  active?: boolean;
  options?: Array<[key: string, label: string]>;
  /** `[parentId, optionKey]` pairs, value_matches rules. */
  when?: Array<[string, string]>;
  match?: 'any' | 'all';
}

/** A question snapshot as `toQuestionSnapshot` builds it, for pure answer tests. */
export function question(id: string, fieldType: QuestionSnapshotJson['fieldType'], spec: QuestionSpec = {}): QuestionSnapshotJson {
  const select = fieldType === 'single_select' || fieldType === 'multiple_select';
  const conditions: QuestionCondition[] | null = spec.when?.length
    ? spec.when.map(([conditionKey, conditionValue]) => ({ rule: 'value_matches', conditionKey, conditionValue }))
    : null;
  return {
    customQuestionId: id,
    prompt: `Prompt of ${id}`,
    fieldType,
    options: select
      ? (
          spec.options ?? [
            ['k-yes', 'Yes'],
            ['k-no', 'No'],
            ['k-maybe', 'Maybe'],
          ]
        ).map(([key, value]) => ({ key, value }))
      : null,
    termsAndConditions: fieldType === 'terms_and_conditions' ? { label: 'Waiver', mediaId: 'm1', isOverrided: false } : null,
    config: {
      experienceId: 'exp-1',
      experienceQuestionId: `eq-${id}`,
      isRequired: spec.required ?? false,
      isActive: spec.active ?? true,
      order: 0,
      scope: spec.scope ?? 'participant',
      conditions,
      conditionsMatchType: conditions ? (spec.match ?? 'any') : null,
    },
  };
}

/** A text or terms response: `text('q1', 'hello')`. */
export const text = (questionId: string, ...values: Array<string | null>): QuestionResponse => ({
  questionId,
  answer: values.map((value) => ({ value })),
});

/** A select response with option keys: `pick('q2', 'k-yes')`. */
export const pick = (questionId: string, ...keys: string[]): QuestionResponse => ({
  questionId,
  answer: keys.map((key) => ({ value: 'anything the client shows', key })),
});
