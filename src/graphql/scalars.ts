import {
  DateTimeISOResolver,
  JSONObjectResolver,
  JSONResolver,
  LocalDateResolver,
  LocaleResolver,
  URLResolver,
  UUIDResolver,
} from 'graphql-scalars';

/** Scalar implementations from graphql-scalars; bad values become BAD_USER_INPUT errors. */
export const scalarResolvers = {
  UUID: UUIDResolver,
  DateTime: DateTimeISOResolver,
  LocalDate: LocalDateResolver,
  Locale: LocaleResolver,
  URL: URLResolver,
  JSON: JSONResolver,
  JSONObject: JSONObjectResolver,
};
