/**
 * Writing experiences (the catalogue API, secret keys only): create from the document GET answers, change
 * it by JSON merge patch (RFC 7396: arrays replaced whole, null removes), archive it. Each write is one
 * unit of work that also records its event (`experience.created`, `.updated`, `.archived`) and moves the
 * experience's integer version, whose entity tag (`"3"`) both faces hand out (REST `ETag`, GraphQL `etag`):
 * a writer whose If-Match / `ifMatch` no longer names it gets PRECONDITION_FAILED and changes nothing
 * (parsed and checked by write-shape.ts, as for listings and brand settings).
 * Prices and taxes written here reach new quotes only: held carts and bookings keep the amounts they
 * were sold at (stored on each booking's participants).
 */
import { randomUUID } from 'node:crypto';
import type { BrandRow, ExperienceRecord } from './store.ts';
import { loadBrand } from './brands.ts';
import { getExperience, toExperience, type Experience, type ExperienceInput } from './experiences.ts';
import { toRatings } from './ratings.ts';
import { experienceDocument, readExperienceDocument, type AddOn, type DocumentContext } from './experience-document.ts';
import { toDecimal } from '../shared/money.ts';
import type { JsonObject } from './document-fields.ts';
import type { Transaction } from '../shared/database.ts';
import type { CallerDeps } from '../shared/deps.ts';
import { invalid, notFound } from '../shared/errors.ts';
import { assertIfMatch, mergePatch, parseIfMatch, preconditionFailed } from './write-shape.ts';
import { recordEvent, type EventType } from '../outbox/outbox.ts';
import { hasFeature } from './features.ts';
import { namedQuestionIds } from './experience-questions.ts';
import { customQuestionsByExperience, toQuestionSnapshot, type QuestionSnapshot } from '../questions/questions.ts';

export interface WrittenExperience {
  /** The experience as GET shows it after the write. */
  experience: Experience;
  /** Its entity tag after the write (REST `ETag`, GraphQL `etag`): what `If-Match` / `ifMatch` takes. */
  etag: string;
}

/** The experience as REST's GET shows it (and as the writes answer): with the questions it asks. */
export async function getExperienceDocument(deps: CallerDeps, input: ExperienceInput): Promise<Experience> {
  const experience = await getExperience(deps, input);
  const [customQuestions] = await customQuestionsByExperience(deps, [experience]);
  const [addOns] = await addOnsOfExperiences(deps, [experience]);
  return { ...experience, addOns, customQuestions: customQuestions ?? [] };
}

/** An experience's entity tag: of its integer version, which every write moves (version 3 is `"3"`). */
export const experienceEtag = (version: number): string => `"${version}"`;

/** A unit that lost the version's compare-and-swap to a concurrent writer: undone, then run again or refused. */
class StaleVersion extends Error {}

const pictureIds = (document: JsonObject): string[] => {
  const items = [document.coverPicture, ...(Array.isArray(document.pictures) ? document.pictures : [])];
  return items.flatMap((item) =>
    item && typeof item === 'object' && !Array.isArray(item) && typeof item.id === 'string' ? [item.id] : [],
  );
};

/** What the document refers to, read in the unit that writes it. */
async function documentContext(
  tx: Transaction,
  brand: BrandRow,
  document: unknown,
  experienceId: string,
  addOnIds: string[] = [],
): Promise<DocumentContext> {
  const doc = document && typeof document === 'object' && !Array.isArray(document) ? (document as JsonObject) : {};
  const enabled = hasFeature(brand, 'customQuestions');
  const policyId = typeof doc.cancellationPolicyId === 'string' ? doc.cancellationPolicyId : null;
  const policy = policyId ? await tx.brands.findCancellationPolicy(policyId) : undefined;
  return {
    brand,
    hosts: await tx.hosts.listHostsOfBrand(brand.id),
    categories: await tx.experienceWrites.categoriesOfBrand(brand.id),
    vibes: await tx.experienceWrites.vibesOfBrand(brand.id),
    media: await tx.experienceWrites.mediaOfBrand(brand.id, pictureIds(doc)),
    cancellationPolicyIds: policy && policy.brandId === brand.id ? [policy.id] : [],
    questions: {
      enabled,
      known: enabled ? await tx.experienceWrites.questionsOfBrand(brand.id, namedQuestionIds(doc.customQuestions)) : [],
      current: enabled ? await tx.experienceWrites.questionAssignments(experienceId) : [],
    },
    addOnIds,
  };
}

/** The add-ons of several experiences, each as the document shows them, priced in its currency (also a DataLoader batch function). */
export async function addOnsOfExperiences(
  deps: { db: Pick<Transaction, 'experienceWrites'> },
  experiences: ReadonlyArray<{ id: string; currency: string }>,
): Promise<AddOn[][]> {
  const rows = await deps.db.experienceWrites.addOnsOf(experiences.map((e) => e.id));
  return experiences.map((e) =>
    rows
      .filter((row) => row.experienceId === e.id)
      .map((row) => ({ id: row.id, name: row.name, price: toDecimal(row.priceMinor, e.currency) })),
  );
}

/** The add-ons of one experience of `brand`, read in the unit. */
async function addOnsOf(tx: Transaction, brand: BrandRow, experienceId: string): Promise<AddOn[]> {
  const [addOns] = await addOnsOfExperiences({ db: tx }, [{ id: experienceId, currency: brand.currency }]);
  return addOns!;
}

/** The questions the experience asks now, as GET shows them (none without the brand's feature). */
async function askedQuestions(tx: Transaction, brand: BrandRow, experienceId: string): Promise<QuestionSnapshot[]> {
  if (!hasFeature(brand, 'customQuestions')) return [];
  return (await tx.questions.activeQuestionsOfExperiences([experienceId])).map(({ question, assignment }) =>
    toQuestionSnapshot(question, assignment),
  );
}

/** Reads the experience back in the unit and records its event: the answer and the event show the same thing. */
async function recordWrite(deps: CallerDeps, tx: Transaction, brand: BrandRow, id: string, type: EventType): Promise<WrittenExperience> {
  const record = await tx.experiences.findExperienceRecord(id);
  if (!record) throw new Error(`Experience ${id} written but not found in its unit of work`);
  const ratings = new Map((await tx.reviewStats.reviewStatsOf([id])).map((row) => [row.experienceId, toRatings(row)]));
  const experience = {
    ...(await toExperience(deps, brand, record, undefined, ratings)),
    addOns: await addOnsOf(tx, brand, id),
    customQuestions: await askedQuestions(tx, brand, id),
  };
  const { brandId: _brandId, contentLanguage: _language, ...payload } = experience;
  await recordEvent(tx, { brandId: brand.id, type, resourceId: id, payload, at: deps.now().toISOString() });
  return { experience, etag: experienceEtag(record.row.version) };
}

async function slugFree(tx: Transaction, brandId: string, slug: string, experienceId: string): Promise<void> {
  const holder = await tx.experienceWrites.experienceIdBySlug(brandId, slug);
  if (holder && holder !== experienceId) throw invalid('slug', `slug "${slug}" is taken by another experience of the brand`);
}

export async function createExperience(deps: CallerDeps, input: { brandId: string; document: unknown }): Promise<WrittenExperience> {
  const brand = await loadBrand(deps, input.brandId);
  const id = randomUUID();
  return deps.db.transaction((tx) => insertExperienceIn(deps, tx, brand, id, input.document));
}

/** The document of a stored experience with the questions it asks and its add-ons: what GET shows, less what is derived. */
export async function storedExperienceDocument(tx: Transaction, brand: BrandRow, record: ExperienceRecord): Promise<JsonObject> {
  const addOns = await addOnsOf(tx, brand, record.row.id);
  const customQuestions = await askedQuestions(tx, brand, record.row.id);
  return experienceDocument(record, brand, { customQuestions, addOns });
}

/** Creates experience `id` of `brand` from `document` in the caller's unit of work, recording `experience.created`. */
export async function insertExperienceIn(
  deps: CallerDeps,
  tx: Transaction,
  brand: BrandRow,
  id: string,
  document: unknown,
): Promise<WrittenExperience> {
  const write = readExperienceDocument(document, id, await documentContext(tx, brand, document, id));
  await slugFree(tx, brand.id, write.row.slug, id);
  await tx.experienceWrites.insertExperience(write);
  return recordWrite(deps, tx, brand, id, 'experience.created');
}

/**
 * Writes `document` whole over the stored experience `record` in the caller's unit of work, recording
 * `experience.updated`; null (nothing written) when a concurrent writer moved its version meanwhile.
 */
export async function replaceExperienceIn(
  deps: CallerDeps,
  tx: Transaction,
  brand: BrandRow,
  record: ExperienceRecord,
  document: unknown,
): Promise<WrittenExperience | null> {
  const addOnIds = (await tx.experienceWrites.addOnsOf([record.row.id])).map((a) => a.id);
  const context = await documentContext(tx, brand, document, record.row.id, addOnIds);
  const write = readExperienceDocument(document, record.row.id, context);
  await slugFree(tx, brand.id, write.row.slug, record.row.id);
  if ((await tx.experienceWrites.replaceExperience(write, record.row.version)) === null) return null;
  return recordWrite(deps, tx, brand, record.row.id, 'experience.updated');
}

export interface ExperienceChange {
  brandId: string;
  experienceId: string;
  /** If-Match / `ifMatch` as sent: the entity tag the writer read; absent: whatever is current. */
  ifMatch?: string | null;
  /** Where it came from, for the error's `field`: `If-Match` (REST, the default) or `ifMatch` (GraphQL). */
  ifMatchField?: string;
}

/** Runs `write` on the current row; a lost race runs it again (twice more), where a named tag no longer matches (412). */
async function onCurrentVersion(
  deps: CallerDeps,
  change: ExperienceChange,
  write: (
    tx: Transaction,
    brand: BrandRow,
    record: NonNullable<Awaited<ReturnType<Transaction['experiences']['findExperienceRecord']>>>,
  ) => Promise<WrittenExperience>,
): Promise<WrittenExperience> {
  const field = change.ifMatchField ?? 'If-Match';
  const named = parseIfMatch(change.ifMatch, field).kind === 'tags';
  const brand = await loadBrand(deps, change.brandId);
  for (let attempt = 0; ; attempt++) {
    try {
      return await deps.db.transaction(async (tx) => {
        const record = await tx.experiences.findExperienceRecord(change.experienceId);
        if (!record || record.row.brandId !== brand.id) throw notFound('Experience', change.experienceId);
        assertIfMatch(change.ifMatch, experienceEtag(record.row.version), field);
        return write(tx, brand, record);
      });
    } catch (error) {
      if (!(error instanceof StaleVersion)) throw error;
      // A writer that named the tag it read is checked again on the next attempt (412 with the new tag).
      if (named ? attempt >= 5 : attempt >= 2) {
        const current = await deps.db.experiences.findExperienceRecord(change.experienceId);
        throw preconditionFailed(field, experienceEtag(current?.row.version ?? 0));
      }
    }
  }
}

/** Applies `patch` (RFC 7396) to the experience's document and writes the result whole. */
export async function updateExperience(deps: CallerDeps, input: ExperienceChange & { patch: unknown }): Promise<WrittenExperience> {
  const { patch } = input;
  if (!patch || typeof patch !== 'object' || Array.isArray(patch)) throw invalid('body', 'A merge patch must be a JSON object');
  return onCurrentVersion(deps, input, async (tx, brand, record) => {
    const document = mergePatch(await storedExperienceDocument(tx, brand, record), patch) as JsonObject;
    const written = await replaceExperienceIn(deps, tx, brand, record, document);
    if (written === null) throw new StaleVersion();
    return written;
  });
}

/** The experience as it is, when a write has nothing to change (no version moved, no event). */
async function unchanged(
  deps: CallerDeps,
  tx: Transaction,
  brand: BrandRow,
  record: NonNullable<Awaited<ReturnType<Transaction['experiences']['findExperienceRecord']>>>,
): Promise<WrittenExperience> {
  const ratings = new Map((await tx.reviewStats.reviewStatsOf([record.row.id])).map((row) => [row.experienceId, toRatings(row)]));
  const experience = await toExperience(deps, brand, record, undefined, ratings);
  return {
    experience: {
      ...experience,
      addOns: await addOnsOf(tx, brand, record.row.id),
      customQuestions: await askedQuestions(tx, brand, record.row.id),
    },
    etag: experienceEtag(record.row.version),
  };
}

/**
 * Archives the experience: checkouts, holds and waitlist joins of it answer EXPERIENCE_ARCHIVED from now
 * on; its bookings stand. Archiving an archived experience changes nothing and records no event.
 */
export async function archiveExperience(deps: CallerDeps, input: ExperienceChange): Promise<WrittenExperience> {
  return onCurrentVersion(deps, input, async (tx, brand, record) => {
    if (record.row.archivedAt) return unchanged(deps, tx, brand, record);
    if ((await tx.experienceWrites.archiveExperience(record.row.id, deps.now().toISOString(), record.row.version)) === null)
      throw new StaleVersion();
    return recordWrite(deps, tx, brand, record.row.id, 'experience.archived');
  });
}

/**
 * Sells an archived experience again: checkouts, holds and waitlist joins take it from now on. Recorded
 * as `experience.updated` (its `status` back to `active`), as any other change of what is sold; un-archiving
 * an experience that is not archived changes nothing and records no event.
 */
export async function unarchiveExperience(deps: CallerDeps, input: ExperienceChange): Promise<WrittenExperience> {
  return onCurrentVersion(deps, input, async (tx, brand, record) => {
    if (!record.row.archivedAt) return unchanged(deps, tx, brand, record);
    if ((await tx.experienceWrites.archiveExperience(record.row.id, null, record.row.version)) === null) throw new StaleVersion();
    return recordWrite(deps, tx, brand, record.row.id, 'experience.updated');
  });
}
