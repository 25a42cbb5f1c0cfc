/**
 * A brand's whole catalogue as one JSON document (secret keys only): exported as the single reads show
 * each object, imported back idempotently by each object's id in ONE unit of work (all or nothing). The
 * import writes nothing of its own: each object goes through the single write that owns it (brand
 * settings, experiences, listings, sessions: the `...In` functions run inside this unit), so it checks the
 * same rules and records the same events, only for what changed. Re-importing an unchanged export
 * changes nothing and records no event.
 *
 * - `brand`: the settings as `GET /v1/brands/{brandId}/settings` shows them, applied as that PATCH is.
 * - `experiences`: `{ id, ...document }`, the document `GET .../experiences/{id}` answers (hosts, categories,
 *   vibes and pictures by the brand's ids). A new id creates; a known id whose document differs from the
 *   stored one is written whole (`experience.updated`). Archiving stays its own write.
 * - `listings`: `{ id, published, ...listing }` as `version=latest` shows it (less `rating`, `medias`);
 *   `published: true` publishes a draft the import leaves.
 * - `sessions`: future one-off sessions `{ id, experienceId, startDateTime, capacity, duration }`: a new id
 *   is scheduled, a known one may change its capacity; its start cannot be moved by an import.
 *
 * Objects missing from the document are left alone (no session is cancelled, no experience archived).
 * Ids are a brand's own: an id another brand holds is refused (VALIDATION_FAILED naming it); copying a
 * catalogue into another brand takes new ids. Every error names its path in the whole document
 * (`experiences.3.hostedBy.id`). With `dryRun` the unit runs whole and is rolled back: the answer lists
 * what would change, nothing is written.
 */
import { isDeepStrictEqual } from 'node:util';
import type { Transaction } from '../shared/database.ts';
import type { CallerDeps } from '../shared/deps.ts';
import { DomainError, invalid } from '../shared/errors.ts';
import { insertSessionsIn, setCapacityIn } from '../availability/session-writes.ts';
import { MAX_SESSION_CAPACITY, planSessions } from '../availability/schedule-input.ts';
import { normalizeSessionTime } from '../availability/sessions.ts';
import { toBrandSettings, loadBrand } from './brands.ts';
import { applyBrandSettingsIn } from './brand-settings-writes.ts';
import { insertExperienceIn, replaceExperienceIn, storedExperienceDocument } from './experience-writes.ts';
import { editListingIn, insertListingIn, listingForExport, publishListingIn } from './listing-writes.ts';
import type { BrandRow } from './store.ts';
import { isObject, type JsonObject } from './write-shape.ts';

/** The most objects (experiences, listings and sessions together) one document may hold. */
export const MAX_CATALOG_OBJECTS = 5_000;
/** The largest catalogue document a request may carry, in bytes (REST answers 413 PAYLOAD_TOO_LARGE above it). */
export const MAX_CATALOG_BYTES = 16 * 1024 * 1024;

export interface CatalogDocument {
  brandId: string;
  exportedAt: string;
  brand: JsonObject;
  experiences: JsonObject[];
  listings: JsonObject[];
  sessions: JsonObject[];
}

export type CatalogObjectType = 'brand' | 'experience' | 'listing' | 'session';
export type CatalogChangeKind = 'created' | 'updated' | 'unchanged';

export interface CatalogChange {
  type: CatalogObjectType;
  id: string;
  /** Where the object is in the document (`experiences.2`). */
  path: string;
  change: CatalogChangeKind;
}

export interface CatalogImportResult {
  dryRun: boolean;
  /** How many objects of the document were created, updated and left unchanged. */
  summary: Record<CatalogChangeKind, number>;
  /** Each object of the document, in the order imported (brand, experiences, listings, sessions). */
  changes: CatalogChange[];
}

const SECTIONS = ['brand', 'experiences', 'listings', 'sessions'] as const;
const IGNORED = ['$schema', 'brandId', 'exportedAt'];
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The brand's catalogue, read in one unit (a consistent picture). */
export async function exportCatalog(deps: CallerDeps, input: { brandId: string }): Promise<CatalogDocument> {
  const brand = await loadBrand(deps, input.brandId);
  const now = deps.now().toISOString();
  return deps.db.transaction(async (tx) => {
    const row = (await tx.brandWrites.findBrandToWrite(brand.id)) ?? brand;
    const { id: _id, ...settings } = toBrandSettings(row);
    const ids = await tx.experienceWrites.catalogIdsOfBrand(brand.id, now);
    const records = new Map((await tx.experiences.findExperienceRecords(ids.experienceIds)).map((r) => [r.row.id, r]));
    const experiences: JsonObject[] = [];
    for (const id of ids.experienceIds) {
      const record = records.get(id);
      if (record) experiences.push({ id, ...(await storedExperienceDocument(tx, row, record)) });
    }
    const listings: JsonObject[] = [];
    for (const id of ids.listingIds) listings.push(await listingForExport(deps, tx, row, id));
    const order = new Map(ids.experienceIds.map((id, index) => [id, index]));
    const sessions = (await tx.sessions.findSessionsByIds(ids.sessionIds))
      .map(({ session }) => session)
      .sort((a, b) => order.get(a.experienceId)! - order.get(b.experienceId)! || (a.startLocal < b.startLocal ? -1 : 1))
      .map((s) => ({
        id: s.id,
        experienceId: s.experienceId,
        startDateTime: s.startLocal,
        capacity: s.capacity,
        duration: s.durationMinutes,
      }));
    return { brandId: brand.id, exportedAt: now, brand: settings as unknown as JsonObject, experiences, listings, sessions };
  });
}

/** Thrown at the end of a dry run's unit so that it is rolled back, carrying the answer out. */
class DryRunRollback extends Error {
  constructor(readonly result: CatalogImportResult) {
    super('dry run');
  }
}

/** Runs `work`, its errors naming their field under `path` in the whole document. */
async function under<T>(path: string, work: () => Promise<T>, rename: (field: string) => string = (f) => `${path}.${f}`): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (!(error instanceof DomainError)) throw error;
    const inner = error.details?.field;
    const field = inner === undefined || inner === 'body' ? path : rename(inner);
    const message = error.message.startsWith(`${field}`) ? error.message : `${field}: ${error.message}`;
    throw new DomainError(error.code, message, { ...error.details, field });
  }
}

/** The document's sections, checked for shape, ids and size before anything is read. */
function readSections(document: unknown) {
  if (!isObject(document)) throw invalid('body', 'A catalogue document is a JSON object');
  const stranger = Object.keys(document).find((key) => !(SECTIONS as readonly string[]).includes(key) && !IGNORED.includes(key));
  if (stranger !== undefined) throw invalid(stranger, `${stranger} is not a section of a catalogue document (${SECTIONS.join(', ')})`);
  if (document.brand !== undefined && document.brand !== null && !isObject(document.brand))
    throw invalid('brand', 'brand must be an object: the settings as GET /v1/brands/{brandId}/settings shows them');
  type WithId = JsonObject & { id: string };
  const lists = { experiences: [] as WithId[], listings: [] as WithId[], sessions: [] as WithId[] };
  let total = 0;
  for (const section of ['experiences', 'listings', 'sessions'] as const) {
    const value = document[section];
    if (value === undefined || value === null) continue;
    if (!Array.isArray(value)) throw invalid(section, `${section} must be an array`);
    total += value.length;
    if (total > MAX_CATALOG_OBJECTS)
      throw new DomainError(
        'VALIDATION_FAILED',
        `A catalogue document holds at most ${MAX_CATALOG_OBJECTS} experiences, listings and sessions`,
        {
          field: section,
          limit: MAX_CATALOG_OBJECTS,
        },
      );
    const seen = new Map<string, number>();
    value.forEach((item, index) => {
      if (!isObject(item)) throw invalid(`${section}.${index}`, `${section}.${index} must be an object`);
      if (typeof item.id !== 'string' || !UUID.test(item.id))
        throw invalid(`${section}.${index}.id`, `${section}.${index}.id must be a UUID`);
      const id = item.id.toLowerCase();
      if (seen.has(id)) throw invalid(`${section}.${index}.id`, `${section}.${index}.id repeats ${section}.${seen.get(id)}.id`);
      seen.set(id, index);
      lists[section].push({ ...item, id });
    });
  }
  return { brand: isObject(document.brand) ? document.brand : null, ...lists };
}

const taken = () => invalid('id', "the id is not the brand's: ids are a brand's own, give an object copied from another brand a new id");

/**
 * Imports the document into the brand in one unit of work: each object created, updated or left as it
 * is by the single write that owns it. With `dryRun`, the same, rolled back.
 */
export async function importCatalog(
  deps: CallerDeps,
  input: { brandId: string; document: unknown; dryRun?: boolean },
): Promise<CatalogImportResult> {
  const { id: brandId } = await loadBrand(deps, input.brandId);
  const sections = readSections(input.document);
  const dryRun = input.dryRun === true;
  try {
    return await deps.db.transaction(async (tx) => {
      const changes: CatalogChange[] = [];
      const note = (type: CatalogObjectType, id: string, path: string, change: CatalogChangeKind) =>
        changes.push({ type, id, path, change });
      if (sections.brand) {
        const { id: _id, ...patch } = sections.brand;
        const { changed } = await under('brand', () => applyBrandSettingsIn(deps, tx, brandId, patch));
        note('brand', brandId, 'brand', changed ? 'updated' : 'unchanged');
      }
      const brand = (await tx.brandWrites.findBrandToWrite(brandId))!;
      for (const [index, { id, ...document }] of sections.experiences.entries()) {
        const path = `experiences.${index}`;
        note('experience', id, path, await under(path, () => importExperience(deps, tx, brand, path, id, document)));
      }
      for (const [index, { id, ...listing }] of sections.listings.entries()) {
        const path = `listings.${index}`;
        note('listing', id, path, await under(path, () => importListing(deps, tx, brand, path, id, listing)));
      }
      for (const [index, { id, ...session }] of sections.sessions.entries()) {
        const path = `sessions.${index}`;
        const rename = (field: string) =>
          field.startsWith('sessions.0') ? `${path}${field.slice('sessions.0'.length)}` : `${path}.${field}`;
        note('session', id, path, await under(path, () => importSession(deps, tx, brand, path, id, session), rename));
      }
      const summary = { created: 0, updated: 0, unchanged: 0 };
      for (const { change } of changes) summary[change]++;
      const result = { dryRun, summary, changes };
      if (dryRun) throw new DryRunRollback(result);
      return result;
    });
  } catch (error) {
    if (error instanceof DryRunRollback) return error.result;
    throw error;
  }
}

async function importExperience(
  deps: CallerDeps,
  tx: Transaction,
  brand: BrandRow,
  path: string,
  id: string,
  document: JsonObject,
): Promise<CatalogChangeKind> {
  const record = await tx.experiences.findExperienceRecord(id);
  if (record && record.row.brandId !== brand.id) throw taken();
  if (!record) {
    await insertExperienceIn(deps, tx, brand, id, document);
    return 'created';
  }
  if (isDeepStrictEqual(document, await storedExperienceDocument(tx, brand, record))) return 'unchanged';
  if ((await replaceExperienceIn(deps, tx, brand, record, document)) === null) {
    throw new DomainError('PRECONDITION_FAILED', `${path} was changed by another writer during the import: import again`, { field: path });
  }
  return 'updated';
}

async function importListing(
  deps: CallerDeps,
  tx: Transaction,
  brand: BrandRow,
  path: string,
  id: string,
  listing: JsonObject,
): Promise<CatalogChangeKind> {
  const { published, ...body } = listing;
  if (published !== undefined && typeof published !== 'boolean') throw invalid('published', 'published must be true or false');
  const existing = await tx.listingWrites.findListingToWrite(id);
  if (existing && existing.listing.brandId !== brand.id) throw taken();
  let change: CatalogChangeKind;
  if (!existing) {
    await insertListingIn(deps, tx, brand, id, body);
    change = 'created';
  } else {
    change = (await editListingIn(deps, tx, brand, id, body)).changed ? 'updated' : 'unchanged';
  }
  if (published === true && (await publishListingIn(deps, tx, brand, id)).changed && change === 'unchanged') change = 'updated';
  return change;
}

const SESSION_FIELDS = new Set(['experienceId', 'startDateTime', 'capacity', 'duration']);

async function importSession(
  deps: CallerDeps,
  tx: Transaction,
  brand: BrandRow,
  path: string,
  id: string,
  session: JsonObject,
): Promise<CatalogChangeKind> {
  const stranger = Object.keys(session).find((key) => !SESSION_FIELDS.has(key));
  if (stranger !== undefined) throw invalid(stranger, `${stranger} is not a field of a session`);
  const experienceId = typeof session.experienceId === 'string' ? session.experienceId.toLowerCase() : null;
  if (experienceId === null) throw invalid('experienceId', "experienceId must name one of the brand's experiences");
  const experience = await tx.experiences.findExperienceRow(experienceId);
  if (!experience || experience.brandId !== brand.id)
    throw new DomainError('NOT_FOUND', `Experience ${experienceId} was not found`, { field: 'experienceId', id: experienceId });
  const [found] = await tx.sessions.findSessionsByIds([id]);
  if (found && found.brandId !== brand.id) throw taken();
  if (!found) {
    const [planned] = planSessions(
      {
        sessions: [
          {
            startDateTime: session.startDateTime,
            capacity: session.capacity,
            ...(session.duration === undefined ? {} : { duration: session.duration }),
          },
        ],
      },
      experience.timezoneId,
      experience.sessionDurationMinutes,
      deps.now(),
    );
    const made = await insertSessionsIn(deps, tx, [{ id, experienceId, ...planned! }]);
    if (made.length === 0)
      throw invalid(
        'startDateTime',
        `the experience already has another session at ${planned!.startLocal}: import it under that session's id`,
      );
    return 'created';
  }
  const start =
    typeof session.startDateTime === 'string' ? normalizeSessionTime(session.startDateTime, experience.timezoneId, 'startDateTime') : null;
  if (found.session.experienceId !== experienceId) throw invalid('experienceId', 'a session cannot move to another experience');
  if (start !== found.session.startLocal)
    throw invalid(
      'startDateTime',
      `a session's start cannot be moved by an import (it is ${found.session.startLocal}): cancel it and add a new one`,
    );
  if (session.duration !== undefined && session.duration !== found.session.durationMinutes)
    throw invalid('duration', `a session's duration cannot be changed by an import (it is ${found.session.durationMinutes})`);
  const capacity = session.capacity;
  if (typeof capacity !== 'number' || !Number.isInteger(capacity) || capacity < 0 || capacity > MAX_SESSION_CAPACITY)
    throw invalid('capacity', `capacity must be a whole number from 0 to ${MAX_SESSION_CAPACITY}`);
  if (capacity === found.session.capacity) return 'unchanged';
  return (await setCapacityIn(deps, tx, id, capacity)).changed ? 'updated' : 'unchanged';
}
