/**
 * Managing listings: create one (as a draft), edit its draft with a JSON merge patch, publish the draft.
 * Both faces call these; each write is one unit of work that records its event (`listing.created`,
 * `listing.updated`, `listing.published`). Every answer carries the listing's `etag`, which `ifMatch`
 * takes back (412 PRECONDITION_FAILED when it changed meanwhile, and nothing is written).
 */
import { randomUUID } from 'node:crypto';
import { recordEvent } from '../outbox/outbox.ts';
import type { Transaction } from '../shared/database.ts';
import type { CallerDeps } from '../shared/deps.ts';
import { DomainError, invalid, notFound } from '../shared/errors.ts';
import { loadBrand } from './brands.ts';
import { hasFeature } from './features.ts';
import { readListingBody, type ListingInput } from './listing-input.ts';
import { chooseContent, toListing, type ContentVersion, type Listing } from './listing-view.ts';
import { assertMayReadVersion } from './listings.ts';
import { toRatings } from './ratings.ts';
import type { BrandRow, FeaturedListingPageRow, ListingFields } from './store.ts';
import { assertIfMatch, checkWritable, etagOf, isObject, mergePatch, type JsonObject } from './write-shape.ts';

export interface ListingWithEtag {
  listing: Listing;
  /** The listing's version (an HTTP entity tag, quoted): what `If-Match` / `ifMatch` takes. */
  etag: string;
}

/** Fields the server derives: sent back unchanged they are ignored, changed they are refused. */
const READ_ONLY = ['id', 'rating', 'medias', 'experienceId'] as const;

/** What is stored of a listing, in a fixed order: its entity tag is of this. */
const storedState = (row: FeaturedListingPageRow) => ({
  listing: row.listing,
  contents: row.contents,
  media: row.media.map((m) => [m.media.id, m.kind]),
  vibes: row.vibes.map((v) => v.id),
});

function view(deps: CallerDeps, brand: BrandRow, row: FeaturedListingPageRow, version: ContentVersion): Listing | undefined {
  const content = chooseContent(row.contents, version);
  if (!content) return undefined;
  return toListing({
    row,
    content,
    translation: null,
    language: brand.language,
    currency: brand.currency,
    medias: row.media,
    vibes: row.vibes,
    ratings: hasFeature(brand, 'reviews') && row.reviewStats ? toRatings(row.reviewStats) : undefined,
    principal: deps.principal,
  });
}

/** The listing as REST shows it (what a client sends back), without the fields only GraphQL has. */
export function listingResource(listing: Listing): JsonObject {
  const { brandId: _brand, shownVersion: _shown, contentLanguage: _language, ...resource } = listing;
  return resource;
}

async function listingOfBrand(tx: Pick<Transaction, 'listingWrites'>, brand: BrandRow, listingId: string) {
  const row = await tx.listingWrites.findListingToWrite(listingId);
  if (!row || row.listing.brandId !== brand.id) throw notFound('Listing', listingId);
  return row;
}

/** Ids the body names must be the brand's own: another brand's are answered as unknown (NOT_FOUND naming the field). */
async function checkOwnership(tx: Transaction, brand: BrandRow, input: ListingInput): Promise<void> {
  const checks = [
    ['categories', input.fields.categoryId ? [input.fields.categoryId] : [], () => 'category.id'],
    ['hosts', input.fields.hostId ? [input.fields.hostId] : [], () => 'hostedBy.id'],
    ['vibes', input.vibeIds, (index: number) => `vibes.${index}.id`],
  ] as const;
  for (const [table, ids, field] of checks) {
    const owned = new Set(await tx.listingWrites.idsOfBrand(table, brand.id, ids));
    ids.forEach((id, index) => {
      if (!owned.has(id))
        throw new DomainError('NOT_FOUND', `${field(index)}: ${id} is not one of the brand's ${table}`, { field: field(index), id });
    });
  }
}

/** A category or host equal to the experience's is left to follow the experience (stored as none). */
function followingExperience(
  fields: ListingFields,
  experience: { categoryId: string | null; hostId: string | null } | null,
  own: ListingFields | null,
) {
  if (experience && fields.categoryId === experience.categoryId && !own?.categoryId) fields.categoryId = null;
  if (experience && fields.hostId === experience.hostId && !own?.hostId) fields.hostId = null;
}

function answer(deps: CallerDeps, brand: BrandRow, row: FeaturedListingPageRow, version: ContentVersion): ListingWithEtag {
  return { listing: (view(deps, brand, row, version) ?? view(deps, brand, row, 'latest'))!, etag: etagOf(storedState(row)) };
}

async function recordListingEvent(
  tx: Transaction,
  deps: CallerDeps,
  brand: BrandRow,
  type: 'listing.created' | 'listing.updated' | 'listing.published',
  row: FeaturedListingPageRow,
) {
  const listing = view(deps, brand, row, type === 'listing.published' ? 'published' : 'latest')!;
  await recordEvent(tx, {
    brandId: brand.id,
    type,
    resourceId: row.listing.id,
    payload: listingResource(listing),
    at: deps.now().toISOString(),
  });
}

/**
 * The brand's listing as the catalogue export holds it, read in the caller's unit: as `version=latest`
 * shows it, less what the server derives (`rating`, `medias`), and whether that is its published content
 * (false: a draft waits to be published).
 */
export async function listingForExport(deps: CallerDeps, tx: Transaction, brand: BrandRow, listingId: string): Promise<JsonObject> {
  const row = await listingOfBrand(tx, brand, listingId);
  const { rating: _rating, medias: _medias, ...resource } = listingResource(view(deps, brand, row, 'latest')!);
  return { ...resource, published: !row.contents.some((c) => c.version === 'draft') };
}

/** One listing of the brand with its etag; `latest` (secret keys) shows its draft where it has one. NOT_FOUND when it has no content of the version. */
export async function getListing(
  deps: CallerDeps,
  input: { brandId: string; listingId: string; version?: ContentVersion; versionField?: string },
): Promise<ListingWithEtag> {
  const version = input.version ?? 'published';
  assertMayReadVersion(deps.principal, version, input.versionField);
  const brand = await loadBrand(deps, input.brandId);
  const row = await listingOfBrand(deps.db, brand, input.listingId);
  const listing = view(deps, brand, row, version);
  if (!listing) throw notFound('Listing', input.listingId);
  return { listing, etag: etagOf(storedState(row)) };
}

/**
 * Creates a listing of one of the brand's experiences, its content a draft: published reads do not show
 * it until `publishListing`. The body is a listing as the API shows it, less its `id`; `experienceId`,
 * `title`, `advertisedPrice` and `startingPrice` are required, every other field has a default.
 */
export async function createListing(deps: CallerDeps, input: { brandId: string; body: JsonObject }): Promise<ListingWithEtag> {
  const brand = await loadBrand(deps, input.brandId);
  const { body } = input;
  if (body.id !== undefined) throw invalid('id', 'id is given by the server: leave it out');
  const id = randomUUID();
  return deps.db.transaction((tx) => insertListingIn(deps, tx, brand, id, body));
}

/**
 * Creates listing `id` of `brand` from `body` (a listing as the API shows it, less its `id`; its content a
 * draft) in the caller's unit of work, recording `listing.created`.
 */
export async function insertListingIn(
  deps: CallerDeps,
  tx: Transaction,
  brand: BrandRow,
  id: string,
  body: JsonObject,
): Promise<ListingWithEtag> {
  for (const field of ['experienceId', 'title', 'advertisedPrice', 'startingPrice']) {
    if (body[field] === undefined || body[field] === null) throw invalid(field, `${field} is required`);
  }
  if (typeof body.experienceId !== 'string') throw invalid('experienceId', 'experienceId must be a UUID');
  const experienceId = body.experienceId.toLowerCase();
  const experience = await tx.experiences.findExperienceRow(experienceId);
  if (!experience || experience.brandId !== brand.id) {
    throw new DomainError('NOT_FOUND', `Experience ${experienceId} was not found`, { field: 'experienceId', id: experienceId });
  }
  const defaults: JsonObject = {
    kind: 'experience',
    productLine: brand.products[0] ?? 'activate',
    summary: '',
    slug: null,
    hidePrice: false,
    pricePerType: 'per person',
    maxParticipants: experience.maxParticipantsCount,
    order: await tx.listingWrites.nextDisplayOrder(brand.id),
    isExclusive: false,
    isUnlisted: false,
    isFeatured: true,
    resourceGroupCollectionId: randomUUID(),
    bookingAvailabilityMode: null,
    category: null,
    hostedBy: null,
    pointsEligible: null,
    eventDates: null,
    vibes: [],
    medias: [],
    rating: null,
    experienceId,
    title: '',
    advertisedPrice: 0,
    startingPrice: 0,
  };
  const { rating: _derived, ...sent } = body;
  const merged = { ...defaults, ...sent, experienceId };
  checkWritable(merged, defaults, READ_ONLY);
  const parsed = readListingBody(merged, brand.currency);
  followingExperience(parsed.fields, experience, null);
  await checkOwnership(tx, brand, parsed);
  await tx.listingWrites.insertListing(
    { id, brandId: brand.id, experienceId, ...parsed.fields },
    { id: randomUUID(), ...parsed.content },
    parsed.vibeIds,
  );
  const row = await listingOfBrand(tx, brand, id);
  await recordListingEvent(tx, deps, brand, 'listing.created', row);
  return answer(deps, brand, row, 'latest');
}

const changed = <T extends object>(before: T, after: T): Partial<T> =>
  Object.fromEntries(Object.entries(after).filter(([key, value]) => value !== before[key as keyof T])) as Partial<T>;

/**
 * Applies a JSON merge patch (RFC 7396: members replace, null removes, arrays are replaced whole) to the
 * listing as `version=latest` shows it. Content fields go to its draft (made from the published content
 * when it has none); the listing's own fields (`isUnlisted`, `isFeatured`, `order`, category, host,
 * vibes...) apply at once. A patch that changes nothing writes nothing and records no event.
 */
export async function updateListingDraft(
  deps: CallerDeps,
  input: { brandId: string; listingId: string; patch: unknown; ifMatch?: string | null; ifMatchField?: string },
): Promise<ListingWithEtag> {
  if (!isObject(input.patch)) throw invalid('body', 'A listing patch is a JSON object (RFC 7396)');
  const patch = input.patch;
  const brand = await loadBrand(deps, input.brandId);
  return deps.db.transaction(async (tx) => {
    const row = await listingOfBrand(tx, brand, input.listingId);
    assertIfMatch(input.ifMatch, etagOf(storedState(row)), input.ifMatchField);
    return (await editListingIn(deps, tx, brand, row.listing.id, patch)).written;
  });
}

/**
 * Applies `patch` to the brand's listing `listingId` in the caller's unit of work (as updateListingDraft
 * does), recording `listing.updated`; `changed` false when it changed nothing (nothing written, no event).
 */
export async function editListingIn(
  deps: CallerDeps,
  tx: Transaction,
  brand: BrandRow,
  listingId: string,
  patch: JsonObject,
): Promise<{ written: ListingWithEtag; changed: boolean }> {
  const row = await listingOfBrand(tx, brand, listingId);
  const current = listingResource(view(deps, brand, row, 'latest')!);
  const merged = mergePatch(current, patch) as JsonObject;
  checkWritable(merged, current, READ_ONLY);
  const parsed = readListingBody(merged, brand.currency);
  const experience = row.listing.experienceId ? await tx.experiences.findExperienceRow(row.listing.experienceId) : undefined;
  followingExperience(parsed.fields, experience ?? null, row.listing);
  await checkOwnership(tx, brand, parsed);
  const { id: _id, brandId: _brandId, experienceId: _experienceId, ...ownFields } = row.listing;
  const fields = changed(ownFields, parsed.fields);
  const draft = row.contents.find((c) => c.version === 'draft');
  const base = draft ?? row.contents.find((c) => c.version === 'published')!;
  const { id: baseId, listingId: _l, version: _v, ...baseContent } = base;
  const contentChanged = Object.keys(changed(baseContent, parsed.content)).length > 0;
  const vibesChanged = parsed.vibeIds.join() !== row.vibes.map((v) => v.id).join();
  if (Object.keys(fields).length === 0 && !contentChanged && !vibesChanged)
    return { written: answer(deps, brand, row, 'latest'), changed: false };
  await tx.listingWrites.updateListing(row.listing.id, fields);
  if (contentChanged)
    await tx.listingWrites.saveDraft(row.listing.id, { id: draft ? baseId : randomUUID(), ...parsed.content }, draft ? null : baseId);
  if (vibesChanged) await tx.listingWrites.replaceListingVibes(row.listing.id, parsed.vibeIds);
  const written = await listingOfBrand(tx, brand, row.listing.id);
  await recordListingEvent(tx, deps, brand, 'listing.updated', written);
  return { written: answer(deps, brand, written, 'latest'), changed: true };
}

/**
 * Makes the listing's draft its published content, in one unit of work: readers see the old published
 * content or the new one, never neither. Without a draft it changes nothing and answers the published
 * listing (so a retried publish is harmless).
 */
export async function publishListing(
  deps: CallerDeps,
  input: { brandId: string; listingId: string; ifMatch?: string | null; ifMatchField?: string },
): Promise<ListingWithEtag> {
  const brand = await loadBrand(deps, input.brandId);
  return deps.db.transaction(async (tx) => {
    const row = await listingOfBrand(tx, brand, input.listingId);
    assertIfMatch(input.ifMatch, etagOf(storedState(row)), input.ifMatchField);
    return (await publishListingIn(deps, tx, brand, row.listing.id)).written;
  });
}

/** Publishes the draft of the brand's listing in the caller's unit of work, recording `listing.published`; `changed` false without a draft. */
export async function publishListingIn(
  deps: CallerDeps,
  tx: Transaction,
  brand: BrandRow,
  listingId: string,
): Promise<{ written: ListingWithEtag; changed: boolean }> {
  const row = await listingOfBrand(tx, brand, listingId);
  if (!(await tx.listingWrites.publishDraft(row.listing.id))) return { written: answer(deps, brand, row, 'published'), changed: false };
  const published = await listingOfBrand(tx, brand, row.listing.id);
  await recordListingEvent(tx, deps, brand, 'listing.published', published);
  return { written: answer(deps, brand, published, 'published'), changed: true };
}
