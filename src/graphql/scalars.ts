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

/** Scalar implementations from graphql-scalars; bad values become BAD_USER_INPUT errors. */
export const scalarResolvers = {
  UUID: behaviourOf(UUIDResolver),
  DateTime: behaviourOf(DateTimeISOResolver),
  LocalDate: behaviourOf(LocalDateResolver),
  Locale: behaviourOf(LocaleResolver),
  URL: behaviourOf(URLResolver),
  JSON: behaviourOf(JSONResolver),
  JSONObject: behaviourOf(JSONObjectResolver),
};
