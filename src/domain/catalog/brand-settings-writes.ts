/**
 * Changing a brand's settings: a JSON merge patch (RFC 7396) of the settings as `getBrandSettings` shows
 * them, checked against the `etag` the client read (`If-Match`). Fields the server derives or the plan
 * decides (features, currency, payment platform, images...) are read-only: ignored when sent back
 * unchanged, refused naming the field when changed. One unit of work, recording `brand.updated`.
 */
import { recordEvent } from '../outbox/outbox.ts';
import type { Transaction } from '../shared/database.ts';
import type { CallerDeps } from '../shared/deps.ts';
import { DomainError, invalid, notFound } from '../shared/errors.ts';
import type { PaymentMethodFlags } from '../shared/json-types.ts';
import { productLines } from '../shared/values.ts';
import { getCancellationPolicy, getReschedulePolicy, loadBrand, toBrandSettings, type BrandSettings } from './brands.ts';
import type { BrandRow, BrandSettingsFields } from './store.ts';
import { assertIfMatch, checkWritable, etagOf, isObject, mergePatch, type JsonObject } from './write-shape.ts';

export interface BrandSettingsWithEtag {
  settings: BrandSettings;
  /** The settings' version (an HTTP entity tag, quoted): what `If-Match` / `ifMatch` takes. */
  etag: string;
}

const READ_ONLY = [
  'id',
  'isLimited',
  'features',
  'currency',
  'paymentPlatform',
  'serviceVersion',
  'cancellationPolicy',
  'reschedulePolicy',
  'designElement.logoId',
  'designElement.logo',
  'designElement.identityImageId',
  'designElement.identityImage',
  'templateElement.hero.mobileImageId',
  'templateElement.hero.desktopImageId',
  'templateElement.hero.mobileImage',
  'templateElement.hero.desktopImage',
  'templateElement.hero.desktopMedia',
  'templateElement.hero.mobileMedia',
] as const;

const NESTED = [
  'designElement',
  'templateElement',
  'templateElement.hero',
  'promotion',
  'shouldValidateComplimentaryBooking',
  'paymentMethods',
];

export const brandEtag = (brand: BrandRow) => etagOf(brand);

/** The version of the brand's settings as they are now, for a read to hand out (what `If-Match` takes). */
export async function brandSettingsEtag(deps: CallerDeps, brandId: string): Promise<string> {
  return brandEtag(await loadBrand(deps, brandId));
}

function text(value: unknown, field: string, max: number, pattern?: RegExp, hint?: string): string {
  if (typeof value !== 'string') throw invalid(field, `${field} must be a string`);
  if (value.length > max) throw invalid(field, `${field} must be at most ${max} characters`);
  if (pattern && !pattern.test(value)) throw invalid(field, `${field} ${hint}`);
  return value;
}

function flag(value: unknown, field: string): boolean {
  if (typeof value !== 'boolean') throw invalid(field, `${field} must be true or false`);
  return value;
}

/** The writable fields of merged settings as the brand row stores them. */
function readSettings(merged: JsonObject, brand: BrandRow): Required<BrandSettingsFields> {
  const design = merged.designElement as JsonObject;
  const hero = (merged.templateElement as JsonObject).hero as JsonObject;
  const wallets = merged.paymentMethods as JsonObject;
  const validation = merged.shouldValidateComplimentaryBooking as JsonObject;
  const products = merged.products;
  if (!Array.isArray(products)) throw invalid('products', `products must be an array of ${productLines.join(', ')}`);
  products.forEach((product, index) => {
    if (!productLines.includes(product)) throw invalid(`products.${index}`, `products.${index} must be one of ${productLines.join(', ')}`);
    if (products.indexOf(product) !== index) throw invalid(`products.${index}`, `products.${index} names ${product} again`);
  });
  const styleFields = ['primaryColor', 'secondaryColor', 'buttonColor', 'primaryFont', 'secondaryFont', 'theme'] as const;
  const heroFields = ['intro', 'heading', 'description'] as const;
  const policyId = (field: string) => (merged[field] === undefined || merged[field] === null ? null : text(merged[field], field, 100));
  return {
    name: text(merged.name, 'name', 200, /\S/, 'must not be empty'),
    brandEmail: text(merged.brandEmail, 'brandEmail', 254, /^[^\s@]+@[^\s@]+\.[^\s@]+$/, 'must be an email address'),
    countryCode: text(merged.countryCode, 'countryCode', 2, /^[A-Z]{2}$/, 'must be an ISO 3166-1 alpha-2 code (two capital letters)'),
    designElement: {
      ...brand.designElement,
      ...Object.fromEntries(styleFields.map((key) => [key, text(design[key], `designElement.${key}`, 100)])),
    },
    templateElement: {
      hero: {
        ...brand.templateElement.hero,
        ...Object.fromEntries(heroFields.map((key) => [key, text(hero[key], `templateElement.hero.${key}`, 2000)])),
      },
    },
    promotionExclusiveTag: text((merged.promotion as JsonObject).exclusiveTag, 'promotion.exclusiveTag', 100),
    customStyle: text(merged.customStyle, 'customStyle', 20_000),
    validateRoomCharge: flag(validation.roomCharge, 'shouldValidateComplimentaryBooking.roomCharge'),
    validateMemberCharge: flag(validation.memberCharge, 'shouldValidateComplimentaryBooking.memberCharge'),
    products: products as BrandRow['products'],
    paymentMethods: Object.fromEntries(
      Object.keys(brand.paymentMethods).map((key) => [key, flag(wallets[key], `paymentMethods.${key}`)]),
    ) as unknown as PaymentMethodFlags,
    cancellationPolicyId: policyId('cancellationPolicyId'),
    reschedulePolicyId: policyId('reschedulePolicyId'),
  };
}

export async function updateBrandSettings(
  deps: CallerDeps,
  input: { brandId: string; patch: unknown; ifMatch?: string | null; ifMatchField?: string },
): Promise<BrandSettingsWithEtag> {
  if (!isObject(input.patch)) throw invalid('body', 'A settings patch is a JSON object (RFC 7396)');
  const patch = input.patch;
  const { id } = await loadBrand(deps, input.brandId);
  return deps.db.transaction(async (tx) => (await applyBrandSettingsIn(deps, tx, id, patch, input)).written);
}

/**
 * Applies `patch` to the settings of brand `brandId` in the caller's unit of work (as updateBrandSettings
 * does), recording `brand.updated`; `changed` false when it changed nothing (nothing written, no event).
 */
export async function applyBrandSettingsIn(
  deps: CallerDeps,
  tx: Transaction,
  brandId: string,
  patch: JsonObject,
  check: { ifMatch?: string | null; ifMatchField?: string } = {},
): Promise<{ written: BrandSettingsWithEtag; changed: boolean }> {
  const brand = await tx.brandWrites.findBrandToWrite(brandId);
  if (!brand) throw notFound('Brand', brandId);
  assertIfMatch(check.ifMatch, brandEtag(brand), check.ifMatchField);
  const current = toBrandSettings(brand) as unknown as JsonObject;
  current.cancellationPolicy = await getCancellationPolicy({ db: tx }, brand.cancellationPolicyId);
  current.reschedulePolicy = await getReschedulePolicy({ db: tx }, brand.reschedulePolicyId);
  const merged = mergePatch(current, patch) as JsonObject;
  for (const field of NESTED) {
    const node = field.split('.').reduce<unknown>((n, key) => (isObject(n) ? n[key] : undefined), merged);
    if (!isObject(node)) throw invalid(field, `${field} must be an object`);
  }
  checkWritable(merged, current, READ_ONLY, NESTED);
  const fields = readSettings(merged, brand);
  for (const [kind, field] of [
    ['cancellation', 'cancellationPolicyId'],
    ['reschedule', 'reschedulePolicyId'],
  ] as const) {
    const policyId = fields[field];
    if (policyId !== null && policyId !== brand[field] && !(await tx.brandWrites.hasPolicy(kind, brand.id, policyId))) {
      throw new DomainError('NOT_FOUND', `${field}: ${policyId} is not one of the brand's ${kind} policies`, { field, id: policyId });
    }
  }
  const changes = Object.fromEntries(
    Object.entries(fields).filter(([key, value]) => JSON.stringify(value) !== JSON.stringify(brand[key as keyof BrandRow])),
  ) as BrandSettingsFields;
  if (Object.keys(changes).length === 0) return { written: { settings: toBrandSettings(brand), etag: brandEtag(brand) }, changed: false };
  await tx.brandWrites.updateBrand(brand.id, changes);
  const updated = (await tx.brandWrites.findBrandToWrite(brand.id))!;
  const settings = toBrandSettings(updated);
  await recordEvent(tx, {
    brandId: brand.id,
    type: 'brand.updated',
    resourceId: brand.id,
    payload: { ...settings },
    at: deps.now().toISOString(),
  });
  return { written: { settings, etag: brandEtag(updated) }, changed: true };
}
