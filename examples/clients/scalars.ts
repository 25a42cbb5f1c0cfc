/**
 * The codegen scalars map for Tessera's custom scalars (docs/graphql.md, Generating a typed client): without
 * it, codegen types every custom scalar as `unknown` (`strictScalars` makes a scalar missing here an
 * error instead). The wire format of each is a JSON string, except JSON and JSONObject. FieldSet and
 * link__Import belong to the federation specification's definitions (schema/federation.graphql): no
 * client field takes or answers them.
 */
export const scalars = {
  UUID: 'string',
  DateTime: 'string',
  LocalDate: 'string',
  Locale: 'string',
  URL: 'string',
  JSON: 'unknown',
  JSONObject: 'Record<string, unknown>',
  FieldSet: 'string',
  link__Import: 'unknown',
};
