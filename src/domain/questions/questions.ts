import type { QuestionCondition, QuestionOption, TermsAndConditions } from '../shared/json-types.ts';
import { type AssignedQuestionRow, type ExperienceQuestionRow, type QuestionRow } from './store.ts';
import type { CallerDeps, Deps } from '../shared/deps.ts';
import { notFound } from '../shared/errors.ts';
import type { BrandRow } from '../catalog/store.ts';
import { loadExperienceOfBrand } from '../catalog/experiences.ts';
import { hasFeature, requireFeature } from '../catalog/features.ts';

/** The spec's QuestionConfig: how a question applies to one experience. */
export interface QuestionConfig {
  experienceId: string;
  experienceQuestionId: string;
  isRequired: boolean;
  isActive: boolean;
  order: number;
  scope: ExperienceQuestionRow['scope'];
  conditions: QuestionCondition[] | null;
  conditionsMatchType: NonNullable<ExperienceQuestionRow['conditionsMatchType']> | null;
}

/** The spec's QuestionSnapshot: a question as configured on an experience at one moment. */
export interface QuestionSnapshot {
  customQuestionId: string;
  prompt: string;
  fieldType: QuestionRow['fieldType'];
  options: QuestionOption[] | null;
  termsAndConditions: TermsAndConditions | null;
  config: QuestionConfig;
}

const selectTypes: ReadonlySet<QuestionRow['fieldType']> = new Set(['single_select', 'multiple_select']);

function termsOf(question: Pick<QuestionRow, 'fieldType' | 'termsAndConditions'>): TermsAndConditions | null {
  const terms = question.termsAndConditions;
  if (question.fieldType !== 'terms_and_conditions' || !terms) return null;
  const { label, mediaId, isOverrided, mediaUrl } = terms;
  return { label, mediaId, isOverrided, ...(mediaUrl ? { mediaUrl } : {}) };
}

/**
 * The snapshot of a question definition and its assignment to an experience. Each detail appears only
 * for the types it belongs to (options for select questions, terms for terms questions), and an empty
 * condition list means "always shown": null conditions and null match type.
 */
export function toQuestionSnapshot(question: QuestionRow, assignment: ExperienceQuestionRow): QuestionSnapshot {
  const conditions = assignment.conditions?.length
    ? assignment.conditions.map(({ rule, conditionKey, conditionValue }) => ({ rule, conditionKey, conditionValue }))
    : null;
  return {
    customQuestionId: question.id,
    prompt: question.prompt,
    fieldType: question.fieldType,
    options: selectTypes.has(question.fieldType) ? (question.options ?? []).map(({ key, value }) => ({ key, value })) : null,
    termsAndConditions: termsOf(question),
    config: {
      experienceId: assignment.experienceId,
      experienceQuestionId: assignment.id,
      isRequired: assignment.isRequired,
      isActive: assignment.isActive,
      order: assignment.order,
      scope: assignment.scope,
      conditions,
      conditionsMatchType: conditions ? assignment.conditionsMatchType : null,
    },
  };
}

/**
 * The questions each experience asks: its active ones, in `order`, one statement for all (a DataLoader
 * batch function), none for an experience of a brand without the `customQuestions` feature.
 */
export async function customQuestionsByExperience(
  deps: Pick<Deps, 'db'>,
  experiences: ReadonlyArray<{ id: string; brandId: string }>,
): Promise<QuestionSnapshot[][]> {
  const brandIds = [...new Set(experiences.map((e) => e.brandId))];
  const brands = await Promise.all(brandIds.map((id) => deps.db.brands.findBrand(id)));
  const asking = askingBrands(brands);
  const asked = experiences.filter((e) => asking.has(e.brandId)).map((e) => e.id);
  return questionsAsked(experiences, asking, asked.length > 0 ? await deps.db.questions.activeQuestionsOfExperiences(asked) : []);
}

/** Of `brands`, the ids of those with the `customQuestions` feature: only their experiences ask questions. */
export function askingBrands(brands: ReadonlyArray<BrandRow | undefined>): Set<string> {
  return new Set(brands.flatMap((brand) => (brand && hasFeature(brand, 'customQuestions') ? [brand.id] : [])));
}

/**
 * The questions each experience asks, from the active assignments `rows` read for them (in the order
 * `activeQuestionsOfExperiences` gives): none for an experience of a brand not in `asking`.
 */
export function questionsAsked(
  experiences: ReadonlyArray<{ id: string; brandId: string }>,
  asking: ReadonlySet<string>,
  rows: readonly AssignedQuestionRow[],
): QuestionSnapshot[][] {
  const byExperience = new Map<string, QuestionSnapshot[]>(experiences.map((e) => [e.id, []]));
  const askedIds = new Set(experiences.filter((e) => asking.has(e.brandId)).map((e) => e.id));
  for (const { question, assignment } of rows) {
    if (askedIds.has(assignment.experienceId)) byExperience.get(assignment.experienceId)?.push(toQuestionSnapshot(question, assignment));
  }
  return experiences.map((e) => byExperience.get(e.id) ?? []);
}

/**
 * Without the `customQuestions` feature the brand asks nothing, so answers are refused (FEATURE_NOT_ENABLED
 * naming the first list sent) rather than silently dropped.
 */
export function refuseAnswersWithoutFeature(
  brand: BrandRow,
  lists: ReadonlyArray<{ field: string; responses: readonly unknown[] | null | undefined }>,
): void {
  const sent = lists.find((list) => (list.responses?.length ?? 0) > 0);
  if (sent) requireFeature(brand, 'customQuestions', 'Answering custom questions', sent.field);
}

/** The custom questions a brand's experience asks (NOT_FOUND when it is not that brand's). */
export async function listCustomQuestions(deps: CallerDeps, input: { brandId: string; experienceId: string }): Promise<QuestionSnapshot[]> {
  const found = await loadExperienceOfBrand(deps, input.brandId, input.experienceId);
  if (!found) throw notFound('Experience', input.experienceId);
  const [questions] = await customQuestionsByExperience(deps, [found.row]);
  return questions ?? [];
}
