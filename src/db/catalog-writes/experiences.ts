/**
 * The experience writes of the catalogue API, written once for both engines (kit.ts): each engine passes
 * its own tables and runs the steps (src/db/sqlite/stores/catalog/catalog-writes.ts and its PostgreSQL twin).
 */
import { and, getTableColumns, inArray, sql, type Table } from 'drizzle-orm';
import type { ExperienceWrite, ExperienceWritesStore, MediaRow, NamedRow } from '../../domain/catalog/store.ts';
import type { BrandQuestion, QuestionsWrite } from '../../domain/catalog/experience-questions.ts';
import type { ExperienceQuestionRow } from '../../domain/questions/store.ts';
import { deleteWhere, equals, insert, select, update, type Row, type Steps, type StepsOf } from './kit.ts';

export interface ExperienceTables {
  experiences: Table;
  experienceTranslations: Table;
  experienceVibes: Table;
  experienceMedia: Table;
  priceTiers: Table;
  taxes: Table;
  media: Table;
  categories: Table;
  vibes: Table;
  questions: Table;
  experienceQuestions: Table;
  addOns: Table;
  /** Read by the catalogue export only. */
  listings: Table;
  sessions: Table;
}

/** The experience's parts and its new media inserted (its own part rows are gone or were never there). */
function* insertParts(t: ExperienceTables, write: ExperienceWrite): Steps<void> {
  const experienceId = write.row.id;
  yield* insert(t.media, write.newMedia as unknown as Row[]);
  for (const item of write.media) yield* update(t.media, { altText: item.altText }, equals(t.media, 'id', item.mediaId));
  yield* insert(
    t.experienceTranslations,
    write.translations.map((translation) => ({ experienceId, ...translation })),
  );
  yield* insert(
    t.experienceVibes,
    write.vibeIds.map((vibeId, position) => ({ experienceId, vibeId, position })),
  );
  const pictures = write.media.filter((m) => m.role === 'picture');
  yield* insert(
    t.experienceMedia,
    write.media.map((m) => ({ experienceId, mediaId: m.mediaId, role: m.role, position: m.role === 'cover' ? 0 : pictures.indexOf(m) })),
  );
  yield* insert(
    t.priceTiers,
    write.priceTiers.map((tier, position) => ({ ...tier, experienceId, position })),
  );
  yield* insert(
    t.taxes,
    write.taxes.map((tax, position) => ({ ...tax, experienceId, position })),
  );
  yield* insert(
    t.addOns,
    write.addOns.map((addOn, position) => ({ ...addOn, experienceId, position })),
  );
  if (write.questions) yield* writeQuestions(t, experienceId, write.questions);
}

/**
 * The experience's questions: new definitions inserted, changed ones updated, its assignments as the
 * document lists them (kept by id, new ones inserted) and every other one of it made inactive, never
 * deleted (an assignment stays what answers already given were asked).
 */
function* writeQuestions(t: ExperienceTables, experienceId: string, write: QuestionsWrite): Steps<void> {
  yield* insert(t.questions, write.newDefinitions as unknown as Row[]);
  for (const { id, brandId: _brand, ...fields } of write.changedDefinitions) {
    yield* update(t.questions, fields, equals(t.questions, 'id', id));
  }
  yield* update(t.experienceQuestions, { isActive: false }, equals(t.experienceQuestions, 'experienceId', experienceId));
  const existing = new Set((yield* questionAssignments(t, experienceId)).map((a) => a.id));
  for (const assignment of write.assignments) {
    if (existing.has(assignment.id)) {
      const { id, experienceId: _experience, ...fields } = assignment;
      yield* update(t.experienceQuestions, fields, equals(t.experienceQuestions, 'id', id));
    } else {
      yield* insert(t.experienceQuestions, [assignment as unknown as Row]);
    }
  }
}

const assignmentKeys = [
  'id',
  'experienceId',
  'questionId',
  'isRequired',
  'isActive',
  'order',
  'scope',
  'conditions',
  'conditionsMatchType',
];

export function* questionAssignments(t: ExperienceTables, experienceId: string): Steps<ExperienceQuestionRow[]> {
  return (yield* select(
    t.experienceQuestions,
    assignmentKeys,
    equals(t.experienceQuestions, 'experienceId', experienceId),
  )) as unknown as ExperienceQuestionRow[];
}

/** Add-ons are referred to by nothing stored (a booking's pricing keeps the add-on's id, name and price as sold). */
export function* addOnsOf(t: ExperienceTables, experienceIds: readonly string[]) {
  if (experienceIds.length === 0) return [];
  const columns = getTableColumns(t.addOns);
  const rows = yield* select(
    t.addOns,
    ['id', 'experienceId', 'name', 'priceMinor', 'position'],
    inArray(columns.experienceId!, [...experienceIds]),
    sql`${columns.experienceId} ASC, ${columns.position} ASC`,
  );
  return rows.map(({ position: _position, ...row }) => row) as Array<{
    id: string;
    experienceId: string;
    name: string;
    priceMinor: number;
  }>;
}

export function* questionsOfBrand(t: ExperienceTables, brandId: string, ids: readonly string[]): Steps<BrandQuestion[]> {
  if (ids.length === 0) return [];
  const definitions = yield* select(
    t.questions,
    ['id', 'brandId', 'prompt', 'fieldType', 'options', 'termsAndConditions'],
    and(equals(t.questions, 'brandId', brandId), inArray(getTableColumns(t.questions).id!, [...ids]))!,
  );
  if (definitions.length === 0) return [];
  const assigned = yield* select(
    t.experienceQuestions,
    ['questionId', 'experienceId'],
    inArray(
      getTableColumns(t.experienceQuestions).questionId!,
      definitions.map((d) => d.id as string),
    ),
  );
  return definitions.map((d) => ({
    ...(d as unknown as BrandQuestion),
    experienceIds: [...new Set(assigned.filter((a) => a.questionId === d.id).map((a) => a.experienceId as string))],
  }));
}

/** The rows of the new categories and vibes first (the experience refers to them), then it, then its parts. */
export function* insertExperience(t: ExperienceTables, write: ExperienceWrite): Steps<void> {
  yield* insert(t.categories, write.newCategories);
  yield* insert(t.vibes, write.newVibes);
  yield* insert(t.experiences, [{ ...write.row, version: 1, archivedAt: null }]);
  yield* insertParts(t, write);
}

/** Its version's compare-and-swap first: a stale writer changes nothing, and a concurrent one waits for the row. */
export function* replaceExperience(t: ExperienceTables, write: ExperienceWrite, expectedVersion: number): Steps<number | null> {
  yield* insert(t.categories, write.newCategories);
  yield* insert(t.vibes, write.newVibes);
  const { id, brandId: _brand, ...fields } = write.row;
  const [changed] = yield* update(t.experiences, fields, versionIs(t, id, expectedVersion), {
    extra: sql`${sql.identifier('version')} = ${sql.identifier('version')} + 1`,
    returning: ['version'],
  });
  if (!changed) return null;
  for (const part of [t.experienceTranslations, t.experienceVibes, t.experienceMedia, t.priceTiers, t.taxes, t.addOns]) {
    yield* deleteWhere(part, equals(part, 'experienceId', id));
  }
  yield* insertParts(t, write);
  return changed.version as number;
}

function versionIs(t: ExperienceTables, id: string, version: number) {
  return and(equals(t.experiences, 'id', id), equals(t.experiences, 'version', version))!;
}

export function* archiveExperience(t: ExperienceTables, id: string, at: string | null, expectedVersion: number): Steps<number | null> {
  const [changed] = yield* update(t.experiences, { archivedAt: at }, versionIs(t, id, expectedVersion), {
    extra: sql`${sql.identifier('version')} = ${sql.identifier('version')} + 1`,
    returning: ['version'],
  });
  return changed ? (changed.version as number) : null;
}

export function* experienceIdBySlug(t: ExperienceTables, brandId: string, slug: string): Steps<string | undefined> {
  const [row] = yield* select(t.experiences, ['id'], and(equals(t.experiences, 'brandId', brandId), equals(t.experiences, 'slug', slug))!);
  return row?.id as string | undefined;
}

/** Named rows of a brand (categories, vibes), by name in byte order. */
export function* namedOfBrand(table: Table, brandId: string): Steps<NamedRow[]> {
  return (yield* select(table, ['id', 'name'], equals(table, 'brandId', brandId))).sort((a, b) =>
    Buffer.compare(Buffer.from(String(a.name)), Buffer.from(String(b.name))),
  ) as unknown as NamedRow[];
}

export function* mediaOfBrand(t: ExperienceTables, brandId: string, ids: readonly string[]): Steps<MediaRow[]> {
  if (ids.length === 0) return [];
  const idColumn = getTableColumns(t.media).id!;
  const rows = yield* select(
    t.media,
    ['id', 'brandId', 'type', 'altText', 'renditions'],
    and(equals(t.media, 'brandId', brandId), inArray(idColumn, [...ids]))!,
  );
  return rows as unknown as MediaRow[];
}

/** Ids of what the brand's catalogue export holds (see ExperienceWritesStore.catalogIdsOfBrand). */
export function* catalogIdsOfBrand(t: ExperienceTables, brandId: string, after: string) {
  const ids = (found: Row[]) => found.map((row) => row.id as string).sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)));
  const experienceIds = ids(yield* select(t.experiences, ['id'], equals(t.experiences, 'brandId', brandId)));
  const listingIds = ids(yield* select(t.listings, ['id'], equals(t.listings, 'brandId', brandId)));
  const sessions = getTableColumns(t.sessions);
  const sessionIds =
    experienceIds.length === 0
      ? []
      : (yield* select(
          t.sessions,
          ['id'],
          and(
            inArray(sessions.experienceId!, experienceIds),
            sql`${sessions.cancelledAt!} IS NULL`,
            sql`${sessions.startsAt!} > ${sql.param(after, sessions.startsAt!)}`,
          )!,
          sql`${sessions.experienceId!}, ${sessions.startLocal!}`,
        )).map((row) => row.id as string);
  return { experienceIds, listingIds, sessionIds };
}

/** The experience writes over one engine's tables, as statement generators (each engine binds them with `bindSteps`). */
export function experienceWrites(t: ExperienceTables): StepsOf<ExperienceWritesStore> {
  return {
    insertExperience: (write) => insertExperience(t, write),
    replaceExperience: (write, expectedVersion) => replaceExperience(t, write, expectedVersion),
    archiveExperience: (id, at, expectedVersion) => archiveExperience(t, id, at, expectedVersion),
    experienceIdBySlug: (brandId, slug) => experienceIdBySlug(t, brandId, slug),
    categoriesOfBrand: (brandId) => namedOfBrand(t.categories, brandId),
    vibesOfBrand: (brandId) => namedOfBrand(t.vibes, brandId),
    mediaOfBrand: (brandId, ids) => mediaOfBrand(t, brandId, ids),
    questionsOfBrand: (brandId, ids) => questionsOfBrand(t, brandId, ids),
    questionAssignments: (experienceId) => questionAssignments(t, experienceId),
    addOnsOf: (experienceIds) => addOnsOf(t, experienceIds),
    catalogIdsOfBrand: (brandId, after) => catalogIdsOfBrand(t, brandId, after),
  };
}
