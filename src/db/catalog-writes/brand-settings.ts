/** The brand settings writes of both engines, written once (see kit.ts). */
import { and, eq, sql } from 'drizzle-orm';
import type { BrandSettingsFields, BrandWritesStore } from '../../domain/catalog/store.ts';
import { assignments, count, rows, type StepsOf, type TableOf } from './kit.ts';

export interface BrandSettingsTables {
  brands: TableOf<keyof Required<BrandSettingsFields> | 'id'>;
  cancellationPolicies: TableOf<'id' | 'brandId'>;
  reschedulePolicies: TableOf<'id' | 'brandId'>;
}

export type BrandSettingsWrites = StepsOf<Omit<BrandWritesStore, 'findBrandToWrite'>>;

export function brandSettingsWrites(t: BrandSettingsTables): BrandSettingsWrites {
  return {
    *updateBrand(brandId, fields) {
      if (Object.values(fields).every((value) => value === undefined)) return;
      yield* count(sql`update ${t.brands} set ${assignments(t.brands, fields)} where ${eq(t.brands.id, brandId)}`);
    },

    *hasPolicy(kind, brandId, policyId) {
      const policies = kind === 'cancellation' ? t.cancellationPolicies : t.reschedulePolicies;
      const found = yield* rows(sql`select 1 from ${policies} where ${and(eq(policies.id, policyId), eq(policies.brandId, brandId))}`);
      return found.length > 0;
    },
  };
}
