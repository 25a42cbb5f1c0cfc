/**
 * The codegen scalars map for Tessera's custom scalars (docs/api.md, Generating a typed client): without
 * it, codegen types every custom scalar as `unknown` (`strictScalars` makes a scalar missing here an
 * error instead). The wire format of each is a JSON string, except JSON and JSONObject.
 */
export const scalars = {
  UUID: 'string',
  DateTime: 'string',
  LocalDate: 'string',
  Locale: 'string',
  URL: 'string',
  JSON: 'unknown',
  JSONObject: 'Record<string, unknown>',
};
