/**
 * A brand's credit codes (stored value: gift cards, goodwill credit) through the catalogue API, secret keys
 * only: issue one with a balance in integer minor units of the brand currency, list, read, and change by
 * JSON merge patch under `If-Match` (write-shape.ts). The balance is what is left: checkout takes what a
 * cart applies from it when it holds the cart (and gives it back if the cart is released), so the row holds
 * no separate "spent" amount and any balance from 0 may be set. Codes are unique per brand ignoring case
 * (CREDIT_CODE_TAKEN). Each write is one unit of work recording `credit_code.created` or `credit_code.updated`.
 */
import { randomUUID } from 'node:crypto';
import type { CreditCodeRow } from '../checkout/store.ts';
import { recordEvent, type EventType } from '../outbox/outbox.ts';
import type { Transaction } from '../shared/database.ts';
import type { CallerDeps } from '../shared/deps.ts';
import { DomainError, invalid, notFound } from '../shared/errors.ts';
import { loadBrand } from './brands.ts';
import { text } from './document-fields.ts';
import type { CreditCodeFields } from './store.ts';
import { assertIfMatch, checkWritable, etagOf, isObject, mergePatch, type JsonObject } from './write-shape.ts';

/** A credit code as the API shows it. */
export interface CreditCode {
  id: string;
  /** Upper-case; checkout matches it ignoring case. */
  code: string;
  /** What is left to spend, in integer minor units of the brand currency. */
  balanceMinor: number;
}

export interface WrittenCreditCode {
  creditCode: CreditCode;
  /** Its entity tag (REST `ETag`, GraphQL `etag`): what `If-Match` / `ifMatch` takes. */
  etag: string;
}

export const creditCodeEtag = (row: CreditCodeRow): string => etagOf(row);

export const toCreditCode = (row: CreditCodeRow): CreditCode => ({ id: row.id, code: row.code, balanceMinor: row.balanceMinor });

const FIELDS = ['code', 'balanceMinor'];
const CODE = /^[A-Z0-9][A-Z0-9_-]*$/;

function readCreditCode(document: JsonObject): CreditCodeFields {
  const code = text(document.code, 'code', { min: 1, max: 40 }).trim().toUpperCase();
  if (!CODE.test(code)) throw invalid('code', 'code takes letters, digits, - and _ only');
  const balance = document.balanceMinor;
  if (typeof balance !== 'number' || !Number.isSafeInteger(balance) || balance < 0 || balance > 1_000_000_000) {
    throw invalid('balanceMinor', 'balanceMinor must be a whole number of minor units of the brand currency, from 0');
  }
  return { code, balanceMinor: balance };
}

async function codeFree(tx: Transaction, brandId: string, code: string, id: string): Promise<void> {
  const holder = await tx.creditCodeWrites.creditCodeIdByCode(brandId, code);
  if (holder && holder !== id) {
    throw new DomainError('CREDIT_CODE_TAKEN', `The brand already has a credit code ${code}`, { field: 'code', code });
  }
}

async function recordWrite(deps: CallerDeps, tx: Transaction, brandId: string, id: string, type: EventType): Promise<WrittenCreditCode> {
  const row = await tx.creditCodeWrites.findCreditCodeToWrite(id);
  if (!row) throw new Error(`Credit code ${id} written but not found in its unit of work`);
  const creditCode = toCreditCode(row);
  await recordEvent(tx, { brandId, type, resourceId: id, payload: { ...creditCode }, at: deps.now().toISOString() });
  return { creditCode, etag: creditCodeEtag(row) };
}

async function creditCodeOfBrand(db: Pick<Transaction, 'creditCodeWrites'>, brandId: string, id: string): Promise<CreditCodeRow> {
  const row = await db.creditCodeWrites.findCreditCodeToWrite(id);
  if (!row || row.brandId !== brandId) throw notFound('CreditCode', id);
  return row;
}

export async function listCreditCodes(deps: CallerDeps, input: { brandId: string }): Promise<CreditCode[]> {
  const brand = await loadBrand(deps, input.brandId);
  return (await deps.db.creditCodeWrites.listCreditCodesOfBrand(brand.id)).map(toCreditCode);
}

export async function getCreditCode(deps: CallerDeps, input: { brandId: string; creditCodeId: string }): Promise<WrittenCreditCode> {
  const brand = await loadBrand(deps, input.brandId);
  const row = await creditCodeOfBrand(deps.db, brand.id, input.creditCodeId);
  return { creditCode: toCreditCode(row), etag: creditCodeEtag(row) };
}

export async function issueCreditCode(deps: CallerDeps, input: { brandId: string; body: unknown }): Promise<WrittenCreditCode> {
  if (!isObject(input.body)) throw invalid('body', 'A credit code is a JSON object');
  const body = input.body;
  for (const key of Object.keys(body))
    if (key !== 'id' && !FIELDS.includes(key)) throw invalid(key, `${key} is not a field of a credit code`);
  const brand = await loadBrand(deps, input.brandId);
  const fields = readCreditCode(body);
  const id = randomUUID();
  return deps.db.transaction(async (tx) => {
    await codeFree(tx, brand.id, fields.code, id);
    await tx.creditCodeWrites.insertCreditCode({ id, brandId: brand.id, ...fields });
    return recordWrite(deps, tx, brand.id, id, 'credit_code.created');
  });
}

export async function updateCreditCode(
  deps: CallerDeps,
  input: { brandId: string; creditCodeId: string; patch: unknown; ifMatch?: string | null; ifMatchField?: string },
): Promise<WrittenCreditCode> {
  if (!isObject(input.patch)) throw invalid('body', 'A credit code patch is a JSON object (RFC 7396)');
  const patch = input.patch;
  const brand = await loadBrand(deps, input.brandId);
  return deps.db.transaction(async (tx) => {
    const row = await creditCodeOfBrand(tx, brand.id, input.creditCodeId);
    assertIfMatch(input.ifMatch, creditCodeEtag(row), input.ifMatchField);
    const current = toCreditCode(row) as unknown as JsonObject;
    const merged = mergePatch(current, patch) as JsonObject;
    checkWritable(merged, current, ['id']);
    const fields = readCreditCode(merged);
    const changes: Partial<CreditCodeFields> = {
      ...(fields.code !== row.code ? { code: fields.code } : {}),
      ...(fields.balanceMinor !== row.balanceMinor ? { balanceMinor: fields.balanceMinor } : {}),
    };
    if (Object.keys(changes).length === 0) return { creditCode: toCreditCode(row), etag: creditCodeEtag(row) };
    if (changes.code !== undefined) await codeFree(tx, brand.id, changes.code, row.id);
    await tx.creditCodeWrites.updateCreditCode(row.id, changes);
    return recordWrite(deps, tx, brand.id, row.id, 'credit_code.updated');
  });
}
