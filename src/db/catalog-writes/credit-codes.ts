/** The credit code writes of both engines, written once (see kit.ts); the locking read is each engine's own. */
import { and, asc, eq, sql } from 'drizzle-orm';
import type { CreditCodeRow } from '../../domain/checkout/store.ts';
import type { CreditCodeFields, CreditCodeWritesStore } from '../../domain/catalog/store.ts';
import { assignments, count, insertValues, select, type StepsOf, type TableOf } from './kit.ts';

type CreditCodeColumn = keyof CreditCodeRow;

export interface CreditCodeTables {
  creditCodes: TableOf<CreditCodeColumn>;
}

const columns: CreditCodeColumn[] = ['id', 'brandId', 'code', 'balanceMinor'];

export type CreditCodeWrites = StepsOf<CreditCodeWritesStore>;

export function creditCodeWrites(t: CreditCodeTables): CreditCodeWrites {
  return {
    *findCreditCodeToWrite(creditCodeId) {
      const [row] = yield* select(t.creditCodes, columns, eq(t.creditCodes.id, creditCodeId));
      return row as CreditCodeRow | undefined;
    },

    *listCreditCodesOfBrand(brandId) {
      const rows = yield* select(
        t.creditCodes,
        columns,
        eq(t.creditCodes.brandId, brandId),
        sql`${asc(t.creditCodes.code)}, ${asc(t.creditCodes.id)}`,
      );
      return rows as unknown as CreditCodeRow[];
    },

    *creditCodeIdByCode(brandId, upperCode) {
      const [row] = yield* select(t.creditCodes, ['id'], and(eq(t.creditCodes.brandId, brandId), eq(t.creditCodes.code, upperCode))!);
      return row?.id as string | undefined;
    },

    *insertCreditCode(row) {
      yield* count(sql`insert into ${t.creditCodes} ${insertValues(t.creditCodes, row)}`);
    },

    *updateCreditCode(creditCodeId, fields: Partial<CreditCodeFields>) {
      if (Object.values(fields).every((value) => value === undefined)) return;
      yield* count(sql`update ${t.creditCodes} set ${assignments(t.creditCodes, fields)} where ${eq(t.creditCodes.id, creditCodeId)}`);
    },
  };
}
