/**
 * The experience document's `customQuestions`: the questions it asks, as GET shows them (the spec's
 * QuestionSnapshot: `customQuestionId`, `prompt`, `fieldType`, `options`, `termsAndConditions`, `config`),
 * in display order, replaced whole by a PATCH. A question sent back with its `customQuestionId` keeps it
 * (and its assignment's `experienceQuestionId`); one without gets new ids. A question left out is made
 * inactive, never deleted (answers already given keep their own copy of it). `config.experienceId`,
 * `config.experienceQuestionId` and `config.order` are derived (the order is the array's).
 */
import { randomUUID } from 'node:crypto';
import type { ExperienceQuestionRow, QuestionRow } from '../questions/store.ts';
import { invalid } from '../shared/errors.ts';
import type { QuestionCondition, QuestionOption, TermsAndConditions } from '../shared/json-types.ts';
import { conditionsMatchTypes, questionFieldTypes, questionScopes } from '../shared/values.ts';
import { array, flag, isObject, object, oneOf, text, type Json } from './document-fields.ts';

/** A question definition of the brand, with the experiences it is assigned to (active or not). */
export interface BrandQuestion extends QuestionRow {
  experienceIds: string[];
}

/** What the document's questions become: definitions to insert or change, and the experience's assignments in order. */
export interface QuestionsWrite {
  newDefinitions: QuestionRow[];
  changedDefinitions: QuestionRow[];
  /** Every assignment the document names (others of the experience become inactive). */
  assignments: ExperienceQuestionRow[];
}

const selectTypes: ReadonlySet<string> = new Set(['single_select', 'multiple_select']);
const MAX_QUESTIONS = 100;
const MAX_OPTIONS = 100;

function options(value: Json | undefined, field: string, fieldType: QuestionRow['fieldType']): QuestionOption[] | null {
  if (!selectTypes.has(fieldType)) {
    if (value !== undefined && value !== null && !(Array.isArray(value) && value.length === 0))
      throw invalid(field, `${field} belongs to select questions only (fieldType ${fieldType})`);
    return null;
  }
  const list = array(value, field);
  if (list.length === 0) throw invalid(field, `${field} must list at least one option for a ${fieldType} question`);
  if (list.length > MAX_OPTIONS) throw invalid(field, `${field} must list at most ${MAX_OPTIONS} options`);
  const keys = new Set<string>();
  return list.map((entry, k) => {
    const option = object(entry, `${field}.${k}`);
    const key = text(option.key, `${field}.${k}.key`, { min: 1, max: 100 });
    if (keys.has(key)) throw invalid(`${field}.${k}.key`, `${field}.${k}.key repeats "${key}"`);
    keys.add(key);
    return { key, value: text(option.value, `${field}.${k}.value`, { min: 1, max: 500 }) };
  });
}

function terms(value: Json | undefined, field: string, fieldType: QuestionRow['fieldType']): TermsAndConditions | null {
  if (fieldType !== 'terms_and_conditions') {
    if (value !== undefined && value !== null) throw invalid(field, `${field} belongs to terms_and_conditions questions only`);
    return null;
  }
  const at = object(value, field);
  const mediaUrl = at.mediaUrl === undefined || at.mediaUrl === null ? undefined : text(at.mediaUrl, `${field}.mediaUrl`, { max: 2048 });
  return {
    label: text(at.label, `${field}.label`, { min: 1, max: 500 }),
    mediaId: text(at.mediaId, `${field}.mediaId`, { min: 1, max: 100 }),
    isOverrided: flag(at.isOverrided, `${field}.isOverrided`, false),
    ...(mediaUrl !== undefined ? { mediaUrl } : {}),
  };
}

const sameDefinition = (a: QuestionRow, b: QuestionRow): boolean =>
  a.prompt === b.prompt &&
  a.fieldType === b.fieldType &&
  JSON.stringify(a.options ?? null) === JSON.stringify(b.options ?? null) &&
  JSON.stringify(a.termsAndConditions ?? null) === JSON.stringify(b.termsAndConditions ?? null);

interface Read {
  definition: QuestionRow;
  config: { isRequired: boolean; isActive: boolean; scope: ExperienceQuestionRow['scope'] };
  conditions: Array<{ raw: Json; field: string }>;
  conditionsMatchType: ExperienceQuestionRow['conditionsMatchType'];
  isNew: boolean;
}

/**
 * The document's `customQuestions` of experience `experienceId` of brand `brandId`. `known`: the brand's
 * definitions the document names; `current`: the experience's assignments now (active or not).
 */
export function readCustomQuestions(
  value: unknown,
  context: { brandId: string; experienceId: string; known: BrandQuestion[]; current: ExperienceQuestionRow[] },
): QuestionsWrite {
  const list = value === undefined || value === null ? [] : array(value, 'customQuestions');
  if (list.length > MAX_QUESTIONS) throw invalid('customQuestions', `customQuestions must list at most ${MAX_QUESTIONS} questions`);
  const seen = new Set<string>();
  const read: Read[] = list.map((entry, i) => {
    const at = `customQuestions.${i}`;
    const item = object(entry, at);
    const fieldType = oneOf(item.fieldType, `${at}.fieldType`, questionFieldTypes);
    const definition: QuestionRow = {
      id: '',
      brandId: context.brandId,
      prompt: text(item.prompt, `${at}.prompt`, { min: 1, max: 1000 }),
      fieldType,
      options: options(item.options, `${at}.options`, fieldType),
      termsAndConditions: terms(item.termsAndConditions, `${at}.termsAndConditions`, fieldType),
    };
    let isNew = true;
    if (item.customQuestionId !== undefined && item.customQuestionId !== null) {
      const id = text(item.customQuestionId, `${at}.customQuestionId`, { min: 1, max: 100 });
      const known = context.known.find((q) => q.id === id);
      if (!known) throw invalid(`${at}.customQuestionId`, `${at}.customQuestionId is not a question of the brand`);
      if (seen.has(id)) throw invalid(`${at}.customQuestionId`, `${at}.customQuestionId repeats a question of the list`);
      seen.add(id);
      definition.id = id;
      isNew = false;
      const sharedWith = known.experienceIds.filter((e) => e !== context.experienceId);
      if (!sameDefinition(known, definition) && sharedWith.length > 0) {
        throw invalid(
          at,
          `${at} changes question ${id}, which other experiences of the brand ask too: send it without customQuestionId to give this experience its own copy`,
        );
      }
    } else {
      definition.id = randomUUID();
    }
    const config = item.config === undefined || item.config === null ? {} : object(item.config, `${at}.config`);
    const rawConditions =
      config.conditions === undefined || config.conditions === null ? [] : array(config.conditions, `${at}.config.conditions`);
    return {
      definition,
      config: {
        isRequired: flag(config.isRequired, `${at}.config.isRequired`, false),
        isActive: flag(config.isActive, `${at}.config.isActive`, true),
        scope: oneOf(config.scope, `${at}.config.scope`, questionScopes),
      },
      conditions: rawConditions.map((raw, j) => ({ raw, field: `${at}.config.conditions.${j}` })),
      conditionsMatchType:
        rawConditions.length === 0
          ? null
          : config.conditionsMatchType === undefined || config.conditionsMatchType === null
            ? 'all'
            : oneOf(config.conditionsMatchType, `${at}.config.conditionsMatchType`, conditionsMatchTypes),
      isNew,
    };
  });

  const byId = new Map(read.filter((q) => !q.isNew).map((q) => [q.definition.id, q]));
  const parents = new Map<string, string[]>();
  const conditionsOf = read.map((q) => {
    const list: QuestionCondition[] = q.conditions.map(({ raw, field }) => {
      const condition = object(raw, field);
      const rule = oneOf(condition.rule ?? 'value_matches', `${field}.rule`, ['value_matches'] as const);
      const conditionKey = text(condition.conditionKey, `${field}.conditionKey`, { min: 1, max: 100 });
      const parent = byId.get(conditionKey);
      if (!parent)
        throw invalid(`${field}.conditionKey`, `${field}.conditionKey must be the customQuestionId of another question of customQuestions`);
      if (parent === q) throw invalid(`${field}.conditionKey`, `${field}.conditionKey names the question itself`);
      if (!selectTypes.has(parent.definition.fieldType))
        throw invalid(`${field}.conditionKey`, `${field}.conditionKey must name a select question (one with options)`);
      const conditionValue = text(condition.conditionValue, `${field}.conditionValue`, { min: 1, max: 100 });
      if (!(parent.definition.options ?? []).some((o) => o.key === conditionValue))
        throw invalid(`${field}.conditionValue`, `${field}.conditionValue must be the key of one of question ${conditionKey}'s options`);
      return { rule, conditionKey, conditionValue };
    });
    parents.set(q.definition.id, [...new Set(list.map((c) => c.conditionKey))]);
    return list;
  });

  // Display conditions must form a forest: following parents from any question never comes back to it.
  read.forEach((q, i) => {
    const stack = [...(parents.get(q.definition.id) ?? [])];
    const visited = new Set<string>();
    while (stack.length > 0) {
      const next = stack.pop()!;
      if (next === q.definition.id)
        throw invalid(
          `customQuestions.${i}.config.conditions`,
          `customQuestions.${i}.config.conditions form a cycle through question ${next}`,
        );
      if (visited.has(next)) continue;
      visited.add(next);
      stack.push(...(parents.get(next) ?? []));
    }
  });

  const assignmentOf = new Map(context.current.map((a) => [a.questionId, a.id]));
  return {
    newDefinitions: read.filter((q) => q.isNew).map((q) => q.definition),
    changedDefinitions: read
      .filter(
        (q) =>
          !q.isNew &&
          !sameDefinition(
            context.known.find((k) => k.id === q.definition.id)!,
            q.definition,
          ),
      )
      .map((q) => q.definition),
    assignments: read.map((q, i) => ({
      id: assignmentOf.get(q.definition.id) ?? randomUUID(),
      experienceId: context.experienceId,
      questionId: q.definition.id,
      isRequired: q.config.isRequired,
      isActive: q.config.isActive,
      order: i + 1,
      scope: q.config.scope,
      conditions: conditionsOf[i]!.length > 0 ? conditionsOf[i]! : null,
      conditionsMatchType: q.conditionsMatchType,
    })),
  };
}

/** The customQuestionIds a document names (to read their definitions before reading it). */
export function namedQuestionIds(value: unknown): string[] {
  if (!Array.isArray(value)) return [];
  return value.flatMap((item) => (isObject(item) && typeof item.customQuestionId === 'string' ? [item.customQuestionId] : []));
}
