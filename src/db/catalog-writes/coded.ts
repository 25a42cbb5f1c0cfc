/**
 * The writes of a brand's coded objects (coupons, credit codes) on both engines, written once (see
 * kit.ts): one table each, codes unique per brand; the locking read is each engine's own.
 */
import { and, asc, eq, sql } from 'drizzle-orm';
import type { CouponRow, CreditCodeRow } from '../../domain/checkout/store.ts';
import type { CodedWritesStore } from '../../domain/catalog/store.ts';
import { assignments, count, insertValues, select, type StepsOf, type TableOf } from './kit.ts';

type CodedTable<Row> = TableOf<Extract<keyof Row, string>> & TableOf<'id' | 'brandId' | 'code'>;

function codedWrites<Row, Fields>(
  table: CodedTable<Row>,
  columns: readonly (keyof Row & string)[],
): StepsOf<CodedWritesStore<Row, Fields>> {
  return {
    *findToWrite(id) {
      const [row] = yield* select(table, columns, eq(table.id, id));
      return row as Row | undefined;
    },

    *listOfBrand(brandId) {
      const rows = yield* select(table, columns, eq(table.brandId, brandId), sql`${asc(table.code)}, ${asc(table.id)}`);
      return rows as unknown as Row[];
    },

    *idByCode(brandId, upperCode) {
      const [row] = yield* select(table, ['id'], and(eq(table.brandId, brandId), eq(table.code, upperCode))!);
      return row?.id as string | undefined;
    },

    *insert(row) {
      yield* count(sql`insert into ${table} ${insertValues(table, row as Record<string, unknown>)}`);
    },

    *update(id, fields) {
      if (Object.values(fields as Record<string, unknown>).every((value) => value === undefined)) return;
      yield* count(sql`update ${table} set ${assignments(table, fields as Record<string, unknown>)} where ${eq(table.id, id)}`);
    },
  };
}

const couponColumns: (keyof CouponRow)[] = [
  'id',
  'brandId',
  'code',
  'percentOffBasisPoints',
  'amountOffMinor',
  'validFrom',
  'validUntil',
  'active',
];
const creditCodeColumns: (keyof CreditCodeRow)[] = ['id', 'brandId', 'code', 'balanceMinor'];

export const couponWrites = (t: { coupons: CodedTable<CouponRow> }) => codedWrites(t.coupons, couponColumns);
export const creditCodeWrites = (t: { creditCodes: CodedTable<CreditCodeRow> }) => codedWrites(t.creditCodes, creditCodeColumns);
