import { actingBrand } from '../access/principal.ts';
import { type BrandRow, type CancellationPolicyRow, type ReschedulePolicyRow } from './store.ts';
import type { DesignElement, PaymentMethodFlags, TemplateElement } from '../shared/json-types.ts';
import type { CallerDeps, Deps } from '../shared/deps.ts';
import type { Database, Stores } from '../shared/database.ts';
import { notFound } from '../shared/errors.ts';
import { keptPerVersion } from '../shared/kept-per-version.ts';

export interface CancellationPolicy {
  id: string;
  name: string;
  description: string;
  fullRefundHoursBefore: number | null;
  lateRefundPercent: number;
}

export interface ReschedulePolicy {
  id: string;
  name: string;
  description: string;
  allowedHoursBefore: number;
  maxReschedules: number;
}

/** The spec's BrandSettings, plus the related resources asked for with `include`. */
export interface BrandSettings {
  id: string;
  name: string;
  brandEmail: string;
  countryCode: string;
  isLimited: boolean;
  designElement: DesignElement;
  templateElement: TemplateElement;
  features: { active: string[]; updatedAt: string; hostsLimit: number };
  promotion: { exclusiveTag: string };
  customStyle: string;
  paymentPlatform: BrandRow['paymentPlatform'];
  shouldValidateComplimentaryBooking: { roomCharge: boolean; memberCharge: boolean };
  currency: string;
  serviceVersion: BrandRow['serviceVersion'];
  products: BrandRow['products'];
  paymentMethods: PaymentMethodFlags;
  cancellationPolicyId: string | null;
  reschedulePolicyId: string | null;
  cancellationPolicy?: CancellationPolicy | null;
  reschedulePolicy?: ReschedulePolicy | null;
}

/** Related resources the brand settings operation can embed. */
export const brandSettingsIncludes = ['cancellationPolicy', 'reschedulePolicy'] as const;
export type BrandSettingsInclude = (typeof brandSettingsIncludes)[number];

export function toBrandSettings(brand: BrandRow): BrandSettings {
  return {
    id: brand.id,
    name: brand.name,
    brandEmail: brand.brandEmail,
    countryCode: brand.countryCode,
    isLimited: brand.isLimited,
    designElement: brand.designElement,
    templateElement: brand.templateElement,
    features: { active: brand.featuresActive, updatedAt: brand.featuresUpdatedAt, hostsLimit: brand.hostsLimit },
    promotion: { exclusiveTag: brand.promotionExclusiveTag },
    customStyle: brand.customStyle,
    paymentPlatform: brand.paymentPlatform,
    shouldValidateComplimentaryBooking: { roomCharge: brand.validateRoomCharge, memberCharge: brand.validateMemberCharge },
    currency: brand.currency,
    serviceVersion: brand.serviceVersion,
    products: brand.products,
    paymentMethods: brand.paymentMethods,
    cancellationPolicyId: brand.cancellationPolicyId,
    reschedulePolicyId: brand.reschedulePolicyId,
  };
}

const toCancellationPolicy = (row: CancellationPolicyRow): CancellationPolicy => ({
  id: row.id,
  name: row.name,
  description: row.description,
  fullRefundHoursBefore: row.fullRefundHoursBefore,
  lateRefundPercent: row.lateRefundPercent,
});

const toReschedulePolicy = (row: ReschedulePolicyRow): ReschedulePolicy => ({
  id: row.id,
  name: row.name,
  description: row.description,
  allowedHoursBefore: row.allowedHoursBefore,
  maxReschedules: row.maxReschedules,
});

/** Brands kept between requests per database; the least recently used beyond this are read again. */
const MAX_BRANDS = 10_000;
const keptBrands = keptPerVersion<Database, BrandRow>(MAX_BRANDS);

/**
 * The request's version of what a brand read reads (`Database.keysVersion`: it moves with every write to
 * brands), read before any of its brand reads, and the shared database it is of.
 */
export interface BrandVersion {
  database: Database;
  version: Promise<string>;
}

/**
 * `deps` for one request, reading each brand once: a checkout reads its brand to check the caller, again to
 * ask its questions and again to show the cart. Only `updateBrandSettings` writes a brand, reading and
 * answering it through its unit of work, so the first read stands for the request. Units of work read
 * through their own stores, as before. Given the request's keys version (as the API-key lookup is,
 * key-lookup.ts), a brand read under the same version by an earlier request serves too: a write to brands
 * moves it, so a brand changed is read again from the next request on (on another PostgreSQL gateway, once
 * its notification arrives); a booking leaves the brands read.
 */
export function readingEachBrandOnce<D extends Deps>(deps: D, versioned?: BrandVersion): D {
  const { db } = deps;
  const read = new Map<string, Promise<BrandRow | undefined>>();
  const readKept = async (id: string, { database, version }: BrandVersion) =>
    keptBrands(database, id, await version, () => db.brands.findBrand(id));
  const findBrand = (id: string) => {
    let brand = read.get(id);
    if (!brand) {
      brand = versioned ? readKept(id, versioned) : db.brands.findBrand(id);
      read.set(id, brand);
    }
    return brand;
  };
  // A checkout reads its brand with what it prices (readCheckout): that read stands for the request too.
  const readCheckout: typeof db.checkout.readCheckout = async (request) => {
    const found = await db.checkout.readCheckout(request);
    if (!read.has(request.brandId)) read.set(request.brandId, Promise.resolve(found.brand));
    return found;
  };
  return { ...deps, db: { ...db, brands: { ...db.brands, findBrand }, checkout: { ...db.checkout, readCheckout } } };
}

/** A brand's row, once the caller is known to act for it. */
export async function loadBrand(deps: CallerDeps, brandId: string): Promise<BrandRow> {
  const id = actingBrand(deps.principal, brandId);
  const brand = await deps.db.brands.findBrand(id);
  if (!brand) throw notFound('Brand', id);
  return brand;
}

export async function getBrandSettings(
  deps: CallerDeps,
  input: { brandId: string; include?: readonly BrandSettingsInclude[] },
): Promise<BrandSettings> {
  const settings = toBrandSettings(await loadBrand(deps, input.brandId));
  const include = new Set(input.include ?? []);
  if (include.has('cancellationPolicy')) settings.cancellationPolicy = await getCancellationPolicy(deps, settings.cancellationPolicyId);
  if (include.has('reschedulePolicy')) settings.reschedulePolicy = await getReschedulePolicy(deps, settings.reschedulePolicyId);
  return settings;
}

export async function getCancellationPolicy(deps: { db: Pick<Stores, 'brands'> }, id: string | null): Promise<CancellationPolicy | null> {
  const row = id ? await deps.db.brands.findCancellationPolicy(id) : undefined;
  return row ? toCancellationPolicy(row) : null;
}

export async function getReschedulePolicy(deps: { db: Pick<Stores, 'brands'> }, id: string | null): Promise<ReschedulePolicy | null> {
  const row = id ? await deps.db.brands.findReschedulePolicy(id) : undefined;
  return row ? toReschedulePolicy(row) : null;
}
