/**
 * Writing hosts (the catalogue API, secret keys only): create one from a host as the list shows it, less
 * its `id`; change it by JSON merge patch (RFC 7396) under `If-Match` (write-shape.ts, as for brand
 * settings: the entity tag is of the stored row). Each write is one unit of work recording `host.created`
 * or `host.updated` with the host as a secret key reads it.
 */
import { randomUUID } from 'node:crypto';
import { isDeepStrictEqual } from 'node:util';
import { recordEvent, type EventType } from '../outbox/outbox.ts';
import type { Transaction } from '../shared/database.ts';
import type { CallerDeps } from '../shared/deps.ts';
import { DomainError, invalid, notFound } from '../shared/errors.ts';
import type { ImageRef } from '../shared/json-types.ts';
import { loadBrand } from './brands.ts';
import { flag, object, pictureUrl, text } from './document-fields.ts';
import { toHost, type Host } from './hosts.ts';
import type { HostFields, HostRow } from './store.ts';
import { assertIfMatch, checkWritable, etagOf, isObject, mergePatch, type JsonObject } from './write-shape.ts';

export interface WrittenHost {
  /** The host as a secret key reads it (with its email address). */
  host: Host;
  /** Its entity tag (REST `ETag`, GraphQL `etag`): what `If-Match` / `ifMatch` takes. */
  etag: string;
}

/** A host's entity tag: of its stored row, so any change moves it. */
export const hostEtag = (row: HostRow): string => etagOf(row);

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** `{ uri: { original: url, 480w: url... }, altText? }`; its `id` is the server's (kept while the URLs stay the same). */
function profilePicture(value: unknown, current: ImageRef | undefined): ImageRef {
  const field = 'profilePicture';
  const item = object(value, field);
  const uri = object(item.uri, `${field}.uri`);
  if (uri.original === undefined) throw invalid(`${field}.uri.original`, `${field}.uri.original is required: the picture's URL`);
  const renditions = Object.fromEntries(Object.entries(uri).map(([size, url]) => [size, pictureUrl(url, `${field}.uri.${size}`)]));
  if (Object.keys(renditions).length > 20) throw invalid(`${field}.uri`, `${field}.uri names at most 20 sizes`);
  const altText = item.altText === undefined || item.altText === null ? undefined : text(item.altText, `${field}.altText`, { max: 500 });
  const id = current && isDeepStrictEqual(current.uri, renditions) ? current.id : randomUUID();
  return { id, uri: renditions, ...(altText !== undefined ? { altText } : {}) };
}

/** The fields of a host document (a merged patch, or a new host), as the row stores them. */
function readHost(document: JsonObject, current?: HostRow): HostFields {
  const emailAddress = text(document.emailAddress, 'emailAddress', { min: 1, max: 254 }).trim();
  if (!EMAIL.test(emailAddress)) throw invalid('emailAddress', 'emailAddress must be an email address');
  return {
    firstName: text(document.firstName, 'firstName', { min: 1, max: 100 }).trim(),
    lastName: text(document.lastName, 'lastName', { min: 1, max: 100 }).trim(),
    emailAddress,
    description: document.description === undefined ? '' : text(document.description, 'description', { max: 5000 }),
    profilePicture: profilePicture(document.profilePicture, current?.profilePicture),
    allowOverlappingBookings: flag(document.allowOverlappingBookings, 'allowOverlappingBookings', false),
  };
}

const FIELDS = ['firstName', 'lastName', 'emailAddress', 'description', 'profilePicture', 'allowOverlappingBookings'];

/** Reads the host back in the unit and records its event: the answer and the event show the same thing. */
async function recordWrite(deps: CallerDeps, tx: Transaction, brandId: string, hostId: string, type: EventType): Promise<WrittenHost> {
  const row = await tx.hostWrites.findHostToWrite(hostId);
  if (!row) throw new Error(`Host ${hostId} written but not found in its unit of work`);
  const host = toHost(row, deps.principal);
  await recordEvent(tx, { brandId, type, resourceId: hostId, payload: { ...host }, at: deps.now().toISOString() });
  return { host, etag: hostEtag(row) };
}

/** The brand's host `hostId`; another brand's host is NOT_FOUND, as one that does not exist. */
async function hostOfBrand(tx: Pick<Transaction, 'hostWrites'>, brandId: string, hostId: string): Promise<HostRow> {
  const row = await tx.hostWrites.findHostToWrite(hostId);
  if (!row || row.brandId !== brandId) throw notFound('Host', hostId);
  return row;
}

export async function getHost(deps: CallerDeps, input: { brandId: string; hostId: string }): Promise<WrittenHost> {
  const brand = await loadBrand(deps, input.brandId);
  const row = await hostOfBrand(deps.db, brand.id, input.hostId);
  return { host: toHost(row, deps.principal), etag: hostEtag(row) };
}

export async function createHost(deps: CallerDeps, input: { brandId: string; body: unknown }): Promise<WrittenHost> {
  if (!isObject(input.body)) throw invalid('body', 'A host is a JSON object');
  const body = input.body;
  for (const key of Object.keys(body)) if (key !== 'id' && !FIELDS.includes(key)) throw invalid(key, `${key} is not a field of a host`);
  const brand = await loadBrand(deps, input.brandId);
  const fields = readHost(body);
  const id = randomUUID();
  return deps.db.transaction(async (tx) => {
    // The brand's row, locked for the unit: racing creates count its hosts one after the other.
    const { hostsLimit } = (await tx.brandWrites.findBrandToWrite(brand.id)) ?? brand;
    const count = (await tx.hosts.listHostsOfBrand(brand.id)).length;
    if (count >= hostsLimit) {
      throw new DomainError(
        'FEATURE_NOT_ENABLED',
        `Brand ${brand.id}'s plan allows ${hostsLimit} hosts (features.hostsLimit) and it has ${count}`,
        {
          flag: 'hostsLimit',
          limit: hostsLimit,
        },
      );
    }
    await tx.hostWrites.insertHost({ id, brandId: brand.id, ...fields });
    return recordWrite(deps, tx, brand.id, id, 'host.created');
  });
}

export async function updateHost(
  deps: CallerDeps,
  input: { brandId: string; hostId: string; patch: unknown; ifMatch?: string | null; ifMatchField?: string },
): Promise<WrittenHost> {
  if (!isObject(input.patch)) throw invalid('body', 'A host patch is a JSON object (RFC 7396)');
  const patch = input.patch;
  const brand = await loadBrand(deps, input.brandId);
  return deps.db.transaction(async (tx) => {
    const row = await hostOfBrand(tx, brand.id, input.hostId);
    assertIfMatch(input.ifMatch, hostEtag(row), input.ifMatchField);
    const current = toHost(row, deps.principal) as unknown as JsonObject;
    const merged = mergePatch(current, patch) as JsonObject;
    checkWritable(merged, current, ['id', 'profilePicture.id']);
    const fields = readHost(merged, row);
    const changes = Object.fromEntries(
      Object.entries(fields).filter(([key, value]) => !isDeepStrictEqual(value, row[key as keyof HostRow])),
    ) as Partial<HostFields>;
    if (Object.keys(changes).length === 0) return { host: toHost(row, deps.principal), etag: hostEtag(row) };
    await tx.hostWrites.updateHost(row.id, changes);
    return recordWrite(deps, tx, brand.id, row.id, 'host.updated');
  });
}
