import { Type, type TSchema } from 'typebox';

export const Uuid = Type.String({ format: 'uuid', description: 'A UUID' });
export const DateTime = Type.String({ format: 'date-time' });
export const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

export const ErrorResponse = Type.Object(
  {
    error: Type.Object({
      code: Type.String({ description: 'Stable error code, e.g. VALIDATION_FAILED' }),
      message: Type.String({ description: 'What went wrong, for a person' }),
      details: Type.Optional(
        Type.Object({ field: Type.Optional(Type.String({ description: 'The input field concerned' })) }, { additionalProperties: true }),
      ),
      requestId: Type.String({ description: 'Quote it when asking for help' }),
    }),
  },
  { $id: 'ErrorResponse', description: 'Every failure has this shape' },
);

const ref = Type.Unsafe<unknown>({ $ref: 'ErrorResponse#' });

/** Error responses every authenticated route can give (429: the key's rate limit), documented in the OpenAPI output. */
export function errorResponses(...statuses: Array<400 | 401 | 403 | 404 | 409 | 413 | 415 | 422>) {
  return Object.fromEntries([400, 401, 429, ...statuses].map((s) => [s, ref]));
}

export const BrandParams = Type.Object({ brandId: Uuid });

export const ImageRef = Type.Object({
  id: Type.String(),
  uri: Type.Record(Type.String(), Type.String(), { description: 'Size name (`original`, `480w`, ...) to URL' }),
});

export const MediaObject = Type.Object({
  id: Type.String(),
  type: Type.String(),
  kind: Type.String(),
  altText: Nullable(Type.String()),
  links: Type.Array(Type.Object({ url: Type.String(), type: Type.String(), resolution: Type.String() })),
});
