/** Writes a catalog's custom question definitions and their assignments to experiences. */
import type { NewRow, Seeder } from '../tables.ts';
import type { BrandCatalog, QuestionSpec } from './catalog-types.ts';
import { catalogIds } from './catalog.ts';
import { demoId, type DemoBrandKey } from './ids.ts';
import { documentRow, documentUrl, mediaId } from './media.ts';

export const questionIds = (brand: DemoBrandKey) => ({
  question: (key: string) => demoId(brand, 'question', key),
  option: (questionKey: string, label: string) => demoId(brand, 'question-option', `${questionKey}/${label}`),
  assignment: (experienceSlug: string, questionKey: string) => demoId(brand, 'experience-question', `${experienceSlug}/${questionKey}`),
});

function questionRow(brand: DemoBrandKey, brandId: string, spec: QuestionSpec): NewRow<'questions'> {
  const ids = questionIds(brand);
  return {
    id: ids.question(spec.key),
    brandId,
    prompt: spec.prompt,
    fieldType: spec.fieldType,
    options: spec.options?.map((label) => ({ key: ids.option(spec.key, label), value: label })) ?? null,
    termsAndConditions: spec.terms
      ? {
          label: spec.terms.label,
          mediaId: mediaId(brand, spec.terms.document.slug),
          isOverrided: spec.terms.isOverrided,
          mediaUrl: documentUrl(brand, spec.terms.document.slug),
        }
      : null,
  };
}

export async function seedQuestions(seed: Seeder, catalog: BrandCatalog): Promise<void> {
  const { brand, brandId } = catalog;
  const specs = catalog.questions ?? [];
  if (specs.length === 0) return;
  const ids = questionIds(brand);
  const documents = specs.flatMap((q) => (q.terms ? [documentRow(brand, brandId, q.terms.document.slug, q.terms.document.alt)] : []));
  if (documents.length) await seed.insert('media', documents);
  await seed.insert(
    'questions',
    specs.map((spec) => questionRow(brand, brandId, spec)),
  );
  for (const a of catalog.assignments ?? []) {
    await seed.insert('experienceQuestions', {
      id: ids.assignment(a.experience, a.question),
      experienceId: catalogIds(brand).experience(a.experience),
      questionId: ids.question(a.question),
      isRequired: a.isRequired,
      isActive: a.isActive,
      order: a.order,
      scope: a.scope,
      conditions: a.showWhen
        ? [
            {
              rule: 'value_matches',
              conditionKey: ids.question(a.showWhen.question),
              conditionValue: ids.option(a.showWhen.question, a.showWhen.option),
            },
          ]
        : null,
      conditionsMatchType: a.showWhen ? 'any' : null,
    });
  }
}
