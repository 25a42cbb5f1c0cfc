/**
 * A brand's credit codes (stored value: gift cards, goodwill credit) through the catalogue API
 * (coded-writes.ts: secret keys only, codes unique per brand ignoring case, CREDIT_CODE_TAKEN,
 * `credit_code.created` / `credit_code.updated`): issued with a balance in integer minor units of the brand
 * currency. The balance is what is left: checkout takes what a cart applies from it when it holds the cart
 * (and gives it back if the cart is released), so the row holds no separate "spent" amount and any balance
 * from 0 may be set.
 */
import type { CreditCodeRow } from '../checkout/store.ts';
import type { CallerDeps } from '../shared/deps.ts';
import { invalid } from '../shared/errors.ts';
import { codedWrites, codeOf, type Written } from './coded-writes.ts';
import type { CreditCodeFields } from './store.ts';
import type { JsonObject } from './write-shape.ts';

/** A credit code as the API shows it. */
export interface CreditCode {
  id: string;
  /** Upper-case; checkout matches it ignoring case. */
  code: string;
  /** What is left to spend, in integer minor units of the brand currency. */
  balanceMinor: number;
}

export type WrittenCreditCode = Written<'creditCode', CreditCode>;

export const toCreditCode = (row: CreditCodeRow): CreditCode => ({ id: row.id, code: row.code, balanceMinor: row.balanceMinor });

const FIELDS = ['code', 'balanceMinor'];

function readCreditCode(document: JsonObject): CreditCodeFields {
  const code = codeOf(document);
  const balance = document.balanceMinor;
  if (typeof balance !== 'number' || !Number.isSafeInteger(balance) || balance < 0 || balance > 1_000_000_000) {
    throw invalid('balanceMinor', 'balanceMinor must be a whole number of minor units of the brand currency, from 0');
  }
  return { code, balanceMinor: balance };
}

const creditCodes = codedWrites({
  key: 'creditCode',
  noun: 'credit code',
  resource: 'CreditCode',
  taken: 'CREDIT_CODE_TAKEN',
  created: 'credit_code.created',
  updated: 'credit_code.updated',
  fields: FIELDS,
  store: (db) => db.creditCodeWrites,
  read: readCreditCode,
  view: toCreditCode,
});

export const listCreditCodes = (deps: CallerDeps, input: { brandId: string }) => creditCodes.list(deps, input.brandId);
export const getCreditCode = (deps: CallerDeps, input: { brandId: string; creditCodeId: string }) =>
  creditCodes.get(deps, input.brandId, input.creditCodeId);
export const issueCreditCode = (deps: CallerDeps, input: { brandId: string; body: unknown }) =>
  creditCodes.create(deps, input.brandId, input.body);
export const updateCreditCode = (
  deps: CallerDeps,
  input: { brandId: string; creditCodeId: string; patch: unknown; ifMatch?: string | null; ifMatchField?: string },
) => creditCodes.update(deps, { ...input, id: input.creditCodeId });
