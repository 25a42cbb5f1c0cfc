import { GraphQLScalarType } from 'graphql';
import {
  DateTimeISOResolver,
  JSONObjectResolver,
  JSONResolver,
  LocalDateResolver,
  LocaleResolver,
  URLResolver,
  UUIDResolver,
} from 'graphql-scalars';

/**
 * graphql-tools copies every enumerable property of a scalar resolver over the SDL's type: the
 * library's name (`DateTimeISO`), description and `specifiedByURL` would replace schema/scalars.graphql's.
 * Only the behaviour is handed over, so the SDL stays the one source of what a client reads.
 */
function behaviourOf(scalar: GraphQLScalarType): GraphQLScalarType {
  const { serialize, parseValue, parseLiteral } = scalar;
  return Object.assign(Object.create(GraphQLScalarType.prototype) as GraphQLScalarType, { serialize, parseValue, parseLiteral });
}

/**
 * UUIDs match whatever case they are sent in: an argument or input field of type UUID reaches the
 * resolvers lower-cased, as every id is stored and answered (REST does the same: src/rest/validation.ts).
 */
function lowerCased(scalar: GraphQLScalarType): GraphQLScalarType {
  const { serialize, parseValue, parseLiteral } = scalar;
  const lower = (value: unknown) => (typeof value === 'string' ? value.toLowerCase() : value);
  return Object.assign(Object.create(GraphQLScalarType.prototype) as GraphQLScalarType, {
    serialize,
    parseValue: (value: unknown) => lower(parseValue(value)),
    parseLiteral: (...args: Parameters<typeof parseLiteral>) => lower(parseLiteral(...args)),
  });
}

/** Scalar implementations from graphql-scalars; bad values become BAD_USER_INPUT errors. */
export const scalarResolvers = {
  UUID: lowerCased(UUIDResolver),
  DateTime: behaviourOf(DateTimeISOResolver),
  LocalDate: behaviourOf(LocalDateResolver),
  Locale: behaviourOf(LocaleResolver),
  URL: behaviourOf(URLResolver),
  JSON: behaviourOf(JSONResolver),
  JSONObject: behaviourOf(JSONObjectResolver),
};
