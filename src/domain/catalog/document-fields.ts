/**
 * Readers of the fields of a JSON document a client writes (the catalogue's), each throwing
 * VALIDATION_FAILED naming the field (a dotted path: `priceTiers.0.name`) when the value does not fit.
 */
import { invalid } from '../shared/errors.ts';
import { MAX_LOCALE_LENGTH } from '../shared/locale.ts';

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type JsonObject = { [key: string]: Json };

export const isObject = (value: unknown): value is JsonObject => typeof value === 'object' && value !== null && !Array.isArray(value);

export function object(value: unknown, field: string): JsonObject {
  if (!isObject(value)) throw invalid(field, `${field} must be an object`);
  return value;
}

export function array(value: unknown, field: string): Json[] {
  if (!Array.isArray(value)) throw invalid(field, `${field} must be an array`);
  return value;
}

export function text(value: unknown, field: string, options: { min?: number; max?: number } = {}): string {
  const { min = 0, max = 10_000 } = options;
  if (typeof value !== 'string') throw invalid(field, `${field} must be a string`);
  if (value.trim().length < min) throw invalid(field, `${field} must not be empty`);
  if (value.length > max) throw invalid(field, `${field} must be at most ${max} characters`);
  return value;
}

export function integer(value: unknown, field: string, min: number, max = 1_000_000): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
    throw invalid(field, `${field} must be an integer from ${min} to ${max}`);
  }
  return value;
}

export function flag(value: unknown, field: string, fallback: boolean): boolean {
  if (value === undefined || value === null) return fallback;
  if (typeof value !== 'boolean') throw invalid(field, `${field} must be true or false`);
  return value;
}

export function coordinate(value: unknown, field: string, limit: number): string {
  if (typeof value !== 'number' || !Number.isFinite(value) || Math.abs(value) > limit) {
    throw invalid(field, `${field} must be a number from -${limit} to ${limit}`);
  }
  return String(value);
}

const languageNames = new Intl.DisplayNames(['en'], { type: 'language', fallback: 'none' });

/** A BCP 47 tag whose language is a known one (`pt`, `pt-BR`), in its canonical spelling. */
export function knownLocale(value: string, field: string): string {
  let canonical: string | undefined;
  try {
    [canonical] = Intl.getCanonicalLocales(value);
  } catch {
    canonical = undefined;
  }
  if (!canonical || value.length > MAX_LOCALE_LENGTH || !languageNames.of(canonical.split('-')[0]!)) {
    throw invalid(field, `${field}: "${value}" is not a known locale (a BCP 47 tag such as pt or pt-BR)`);
  }
  return canonical;
}

export function oneOf<T extends string>(value: unknown, field: string, values: readonly T[]): T {
  if (typeof value !== 'string' || !(values as readonly string[]).includes(value)) {
    throw invalid(field, `${field} must be one of ${values.join(', ')}`);
  }
  return value as T;
}

/**
 * An absolute URL of a picture, at most 2048 characters: https, or also http where `http` allows it (an
 * experience's media, as stored before hosts were written). The error names `field`.
 */
export function pictureUrl(value: unknown, field: string, { http = false }: { http?: boolean } = {}): string {
  const raw = text(value, field, { min: 1, max: 2048 });
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw invalid(field, `${field} must be an absolute https URL`);
  }
  if (url.protocol !== 'https:' && !(http && url.protocol === 'http:')) throw invalid(field, `${field} must be an absolute https URL`);
  return raw;
}
