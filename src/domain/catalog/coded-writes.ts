/**
 * The API writes of a brand's coded objects (coupons, credit codes), secret keys only: list, read, create,
 * and change by JSON merge patch (RFC 7396) under `If-Match` (write-shape.ts; the entity tag is of the
 * stored row). Codes are upper-cased and unique per brand (the kind's `*_CODE_TAKEN`, 409; two units
 * creating one code at once: the port runs the loser again, which then finds the winner's row). Each write
 * is one unit of work recording the kind's `.created` or `.updated` event; a patch that changes nothing
 * writes and records nothing.
 */
import { randomUUID } from 'node:crypto';
import { isDeepStrictEqual } from 'node:util';
import { recordEvent, type EventType } from '../outbox/outbox.ts';
import type { Stores, Transaction } from '../shared/database.ts';
import type { CallerDeps } from '../shared/deps.ts';
import { DomainError, invalid, notFound, type ErrorCode } from '../shared/errors.ts';
import { loadBrand } from './brands.ts';
import { text } from './document-fields.ts';
import type { CodedWritesStore } from './store.ts';
import { assertIfMatch, checkWritable, etagOf, isObject, mergePatch, type JsonObject } from './write-shape.ts';

/** What a write answers: the object under its kind's name (`coupon`, `creditCode`) and its entity tag. */
export type Written<Key extends string, View> = { [K in Key]: View } & {
  /** REST `ETag`, GraphQL `etag`: what `If-Match` / `ifMatch` takes. */
  etag: string;
};

export interface CodedKind<Key extends string, Row extends CodedRow, Fields extends { code: string }, View> {
  /** The answer's key, and the name in messages (`coupon`, `credit code`). */
  key: Key;
  noun: string;
  /** The NOT_FOUND resource (`Coupon`). */
  resource: string;
  taken: ErrorCode;
  created: EventType;
  updated: EventType;
  /** The fields a document may carry besides `id`. */
  fields: readonly string[];
  store: (db: Stores) => CodedWritesStore<Row, Fields>;
  /** The fields of a document (new, or merged with a patch) as the row stores them, or a VALIDATION_FAILED naming the field. */
  read: (document: JsonObject) => Fields;
  view: (row: Row) => View;
}

type CodedRow = { id: string; brandId: string; code: string };

const CODE = /^[A-Z0-9][A-Z0-9_-]*$/;

/** A document's `code`, upper-cased: letters, digits, `-` and `_`, 1 to 40. */
export function codeOf(document: JsonObject): string {
  const code = text(document.code, 'code', { min: 1, max: 40 }).trim().toUpperCase();
  if (!CODE.test(code)) throw invalid('code', 'code takes letters, digits, - and _ only');
  return code;
}

export function codedWrites<Key extends string, Row extends CodedRow, Fields extends { code: string }, View>(
  kind: CodedKind<Key, Row, Fields, View>,
) {
  const written = (row: Row, view = kind.view(row)) => ({ [kind.key]: view, etag: etagOf(row) }) as Written<Key, View>;

  async function codeFree(tx: Transaction, brandId: string, code: string, id: string): Promise<void> {
    const holder = await kind.store(tx).idByCode(brandId, code);
    if (holder && holder !== id) throw new DomainError(kind.taken, `The brand already has a ${kind.noun} ${code}`, { field: 'code', code });
  }

  async function recordWrite(deps: CallerDeps, tx: Transaction, brandId: string, id: string, type: EventType) {
    const row = await kind.store(tx).findToWrite(id);
    if (!row) throw new Error(`${kind.resource} ${id} written but not found in its unit of work`);
    const view = kind.view(row);
    await recordEvent(tx, {
      brandId,
      type,
      resourceId: id,
      payload: { ...(view as Record<string, unknown>) },
      at: deps.now().toISOString(),
    });
    return written(row, view);
  }

  async function ofBrand(db: Stores, brandId: string, id: string): Promise<Row> {
    const row = await kind.store(db).findToWrite(id);
    if (!row || row.brandId !== brandId) throw notFound(kind.resource, id);
    return row;
  }

  return {
    async list(deps: CallerDeps, brandId: string): Promise<View[]> {
      const brand = await loadBrand(deps, brandId);
      return (await kind.store(deps.db).listOfBrand(brand.id)).map(kind.view);
    },

    async get(deps: CallerDeps, brandId: string, id: string): Promise<Written<Key, View>> {
      const brand = await loadBrand(deps, brandId);
      return written(await ofBrand(deps.db, brand.id, id));
    },

    async create(deps: CallerDeps, brandId: string, body: unknown): Promise<Written<Key, View>> {
      if (!isObject(body)) throw invalid('body', `A ${kind.noun} is a JSON object`);
      for (const field of Object.keys(body)) {
        if (field !== 'id' && !kind.fields.includes(field)) throw invalid(field, `${field} is not a field of a ${kind.noun}`);
      }
      const brand = await loadBrand(deps, brandId);
      const fields = kind.read(body);
      const id = randomUUID();
      return deps.db.transaction(async (tx) => {
        await codeFree(tx, brand.id, fields.code, id);
        await kind.store(tx).insert({ id, brandId: brand.id, ...fields });
        return recordWrite(deps, tx, brand.id, id, kind.created);
      });
    },

    async update(
      deps: CallerDeps,
      input: { brandId: string; id: string; patch: unknown; ifMatch?: string | null; ifMatchField?: string },
    ): Promise<Written<Key, View>> {
      if (!isObject(input.patch)) throw invalid('body', `A ${kind.noun} patch is a JSON object (RFC 7396)`);
      const patch = input.patch;
      const brand = await loadBrand(deps, input.brandId);
      return deps.db.transaction(async (tx) => {
        const row = await ofBrand(tx, brand.id, input.id);
        assertIfMatch(input.ifMatch, etagOf(row), input.ifMatchField);
        const current = kind.view(row) as unknown as JsonObject;
        const merged = mergePatch(current, patch) as JsonObject;
        checkWritable(merged, current, ['id']);
        const changes = Object.fromEntries(
          Object.entries(kind.read(merged)).filter(([field, value]) => !isDeepStrictEqual(value, row[field as keyof Row])),
        ) as Partial<Fields>;
        if (Object.keys(changes).length === 0) return written(row);
        if (changes.code !== undefined) await codeFree(tx, brand.id, changes.code, row.id);
        await kind.store(tx).update(row.id, changes);
        return recordWrite(deps, tx, brand.id, row.id, kind.updated);
      });
    },
  };
}
