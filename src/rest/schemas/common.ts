import { Type, type Static, type TSchema } from 'typebox';

export const Uuid = Type.String({ format: 'uuid', description: 'A UUID' });
export const DateTime = Type.String({ format: 'date-time' });
export const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

/**
 * A named schema: registered once with the app (`components.ts`) and referenced by `$ref`, so the OpenAPI
 * document lists it under components.schemas by its `$id`; the type is the schema's own.
 */
export const ref = <T extends TSchema>(schema: T, description?: string) =>
  Type.Unsafe<Static<T>>({ $ref: `${(schema as { $id?: string }).$id}#`, ...(description ? { description } : {}) });

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
  { $id: 'Error', description: 'Every failure has this shape' },
);

/** The 502 of the routes that may ask for a human check (src/domain/checkout/human-check.ts). */
export const HUMAN_CHECK_UNAVAILABLE_ANSWER =
  'HUMAN_CHECK_UNAVAILABLE: the brand asks publishable keys for a human check and its provider gave no verdict; nothing was held, retry';

/** Route-specific error statuses; those every route shares are added by src/rest/openapi/operation.ts. */
export function errorResponses(...statuses: Array<400 | 401 | 403 | 404 | 409 | 412 | 413 | 415 | 422>) {
  return Object.fromEntries(statuses.map((s) => [s, ref(ErrorResponse)]));
}

/**
 * A decimal amount a client sends in the brand's currency. Its precision follows the currency (the server
 * refuses more decimals than the currency has: src/domain/shared/money.ts), so no fixed `multipleOf` fits
 * every brand: the description states the rule.
 */
export const MoneyInput = (description: string, options: { exclusiveMinimum?: number; minimum?: number } = {}) =>
  Type.Number({
    ...options,
    description:
      `${description}, in the brand's currency (a booking's currency) with at most as many decimals as that currency has ` +
      '(EUR, USD: 2, e.g. 12.5 or 12.55; JPY: 0, e.g. 1500; KWD: 3); more decimals are 400 VALIDATION_FAILED naming the field',
  });

export const BrandParams = Type.Object({ brandId: Uuid });

export const ImageRef = Type.Object({
  id: Type.String(),
  uri: Type.Record(Type.String(), Type.String(), { description: 'Size name (`original`, `480w`, ...) to URL' }),
  altText: Type.Optional(Type.String({ description: 'Text for readers who cannot see the picture, when the brand wrote one' })),
});

export const MediaObject = Type.Object({
  id: Type.String(),
  type: Type.String(),
  kind: Type.String(),
  altText: Nullable(Type.String()),
  links: Type.Array(Type.Object({ url: Type.String(), type: Type.String(), resolution: Type.String() })),
});

/** The `If-Match` header of every catalogue write (experiences, listings, brand settings): one description, one parser (write-shape.ts). */
export const IfMatchHeaders = Type.Object({
  'if-match': Type.Optional(
    Type.String({
      maxLength: 1000,
      description:
        'The `ETag` of the object as the client last read or wrote it (RFC 9110: `*`, or a comma-separated list of tags). ' +
        'When none of them is current, 412 PRECONDITION_FAILED (`details.etag` the current one) and nothing is written; ' +
        'a weak tag (`W/"..."`) never matches; a value that is not an entity tag is 400. Without it the write is not checked.',
    }),
  ),
});
