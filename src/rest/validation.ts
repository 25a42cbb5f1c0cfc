/**
 * Request validation with Ajv, one instance per kind of input. Query strings and path parameters arrive as
 * text and are parsed into the types their schemas declare (`?limit=20` is the number 20). JSON bodies
 * arrive typed and are taken exactly as sent: a string is never a number, a boolean or an array, so a
 * partner's serialization bug (`"refundAmount": "5"`) is a 400 naming the field, never a refund.
 */
import type { FastifySchema, FastifySchemaCompiler, FastifySchemaValidationError } from 'fastify';
import { Ajv, type Options } from 'ajv';
import addFormats from 'ajv-formats';
import { NUL_MESSAGE, nulCharacterPath } from '../http/nul-character.ts';

/**
 * Fastify's own defaults, but unknown fields are refused rather than dropped (a misspelt `refundAmount` must not pass).
 * `multipleOf` is compared to 9 decimals: in binary floating point 33.33 / 0.01 is not a whole number.
 */
const common: Options = { useDefaults: true, removeAdditional: false, addUsedSchema: false, allErrors: false, multipleOfPrecision: 9 };

/**
 * UUIDs match whatever case they are sent in (`2F1C...` names the booking `2f1c...` does): every value
 * of a `format: uuid` schema, in paths, query strings and bodies alike, is lower-cased once it is valid,
 * before any route or domain function sees it. The keyword is added to the schemas as they are compiled
 * (`lowerCasingUuids`), so the OpenAPI document keeps the plain `format: uuid`.
 */
const LOWER_CASE_UUID = 'x-lower-case-uuid';
const lowerCaseUuid = {
  keyword: LOWER_CASE_UUID,
  modifying: true,
  schemaType: 'boolean',
  errors: false,
  validate: (_: boolean, data: unknown, _parent: unknown, at?: { parentData: unknown; parentDataProperty: string | number }) => {
    if (typeof data === 'string' && at?.parentData && typeof at.parentData === 'object') {
      (at.parentData as Record<string | number, unknown>)[at.parentDataProperty] = data.toLowerCase();
    }
    return true;
  },
} as const;

/** `schema` with the lower-casing keyword beside every `format: uuid`. */
function lowerCasingUuids(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(lowerCasingUuids);
  if (!schema || typeof schema !== 'object') return schema;
  const copy: Record<string | symbol, unknown> = { ...schema };
  for (const key of Object.keys(copy)) copy[key] = lowerCasingUuids(copy[key]);
  if (copy.format === 'uuid' && copy.type === 'string') copy[LOWER_CASE_UUID] = true;
  return copy;
}

const forText = addFormats.default(new Ajv({ ...common, coerceTypes: 'array' })).addKeyword(lowerCaseUuid);
const forBodies = addFormats.default(new Ajv({ ...common, coerceTypes: false })).addKeyword(lowerCaseUuid);

type Validate = ((data: unknown) => boolean) & { errors?: FastifySchemaValidationError[] | null };

/** `validate`, then no string anywhere in the input may hold NUL (src/http/nul-character.ts): an Ajv-shaped error naming it. */
function refusingNul(validate: Validate): Validate {
  const checked: Validate = (data) => {
    if (!validate(data)) {
      checked.errors = validate.errors;
      return false;
    }
    const path = nulCharacterPath(data);
    if (path === null) return true;
    checked.errors = [
      { keyword: 'nul', instancePath: path ? `/${path.replaceAll('.', '/')}` : '', schemaPath: '#', message: NUL_MESSAGE, params: {} },
    ];
    return false;
  };
  return checked;
}

export const validatorCompiler: FastifySchemaCompiler<FastifySchema> = ({ schema, httpPart }) =>
  refusingNul((httpPart === 'body' ? forBodies : forText).compile(lowerCasingUuids(schema) as object) as Validate);

/**
 * For a route whose body the domain checks part by part: validates the body against `envelope` only,
 * while the route's own body schema (what a partner should send) is what the OpenAPI document shows.
 */
export const validateBodyAs =
  (envelope: object): FastifySchemaCompiler<FastifySchema> =>
  (route) =>
    validatorCompiler(route.httpPart === 'body' ? { ...route, schema: envelope } : route);
