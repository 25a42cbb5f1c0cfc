/** Schema conventions a generated client relies on, read from the running server by introspection. */
import { beforeAll, describe, expect, it } from 'vitest';
import { errorCodes } from '../../../src/domain/shared/errors.ts';
import { eventTypes } from '../../../src/domain/outbox/outbox.ts';
import { startApp, type TestApp } from '../../support/app.ts';
import { freshDb } from '../../support/db.ts';
import { createApiKey, createBrand } from '../../../fixtures/factories/brands.ts';

const db = await freshDb();
const brand = await createBrand(db);
const key = (await createApiKey(db, { brandId: brand.id })).secret;

let t: TestApp;
beforeAll(async () => {
  t = await startApp(db);
});

interface TypeRef {
  kind: string;
  name: string | null;
  ofType: TypeRef | null;
}

const introspect = async (query: string) => {
  const res = await t.gql(query, {}, { key });
  expect(res.body.errors).toBeUndefined();
  return res.body.data;
};

describe('GraphQL conventions', () => {
  it('names the specification every custom scalar follows', async () => {
    const data = await introspect('{ __schema { types { kind name specifiedByURL } } }');
    const scalars = (data.__schema.types as Array<{ kind: string; name: string; specifiedByURL: string | null }>)
      .filter((type) => type.kind === 'SCALAR' && !['String', 'Int', 'Float', 'Boolean', 'ID'].includes(type.name))
      .map(({ name, specifiedByURL }) => [name, specifiedByURL]);
    expect(Object.fromEntries(scalars)).toEqual({
      UUID: 'https://www.rfc-editor.org/rfc/rfc4122',
      DateTime: 'https://www.rfc-editor.org/rfc/rfc3339#section-5.6',
      LocalDate: 'https://www.rfc-editor.org/rfc/rfc3339#section-5.6',
      Locale: 'https://www.rfc-editor.org/rfc/rfc5646',
      URL: 'https://url.spec.whatwg.org/',
      JSON: 'https://www.rfc-editor.org/rfc/rfc8259',
      JSONObject: 'https://www.rfc-editor.org/rfc/rfc8259#section-4',
      // The federation specification's (schema/federation.graphql, and `_entities`'s representations): no client field uses them.
      FieldSet: null,
      link__Import: null,
      _Any: null,
    });
  });

  it('lists every error code of the domain in the ErrorCode enum, each documented', async () => {
    const data = await introspect('{ __type(name: "ErrorCode") { enumValues { name description } } }');
    const values = data.__type.enumValues as Array<{ name: string; description: string | null }>;
    expect(values.map((v) => v.name)).toEqual([...errorCodes]);
    expect(values.filter((v) => !v.description?.trim())).toEqual([]);
  });

  it('spells every event type as an enum value without dots', async () => {
    const data = await introspect('{ __type(name: "EventType") { enumValues { name } } }');
    expect(data.__type.enumValues.map((v: { name: string }) => v.name)).toEqual([
      'BOOKING_CREATED',
      'BOOKING_CONFIRMED',
      'BOOKING_FAILED',
      'BOOKING_CANCELLED',
      'BOOKING_PARTICIPANTS_CANCELLED',
      'BOOKING_REFUNDED',
      'BOOKING_RESCHEDULED',
      'WAITLIST_ENTRY_CREATED',
      'WAITLIST_OFFERED',
      'WAITLIST_CONVERTED',
      'WAITLIST_EXPIRED',
      'EXPERIENCE_CREATED',
      'EXPERIENCE_UPDATED',
      'EXPERIENCE_ARCHIVED',
      'LISTING_CREATED',
      'LISTING_UPDATED',
      'LISTING_PUBLISHED',
      'BRAND_UPDATED',
      'HOST_CREATED',
      'HOST_UPDATED',
      'COUPON_CREATED',
      'COUPON_UPDATED',
      'CREDIT_CODE_CREATED',
      'CREDIT_CODE_UPDATED',
      'SESSION_CREATED',
      'SESSION_UPDATED',
      'SESSION_CANCELLED',
    ]);
    expect(eventTypes).toHaveLength(27);
  });

  it('answers every mutation with its own non-null payload object, named after it', async () => {
    const data = await introspect(
      '{ __schema { mutationType { fields { name type { kind name ofType { kind name ofType { kind name } } } } } } }',
    );
    const results = (data.__schema.mutationType.fields as Array<{ name: string; type: TypeRef }>).map(({ name, type }) => [
      name,
      `${type.kind} ${type.ofType?.kind} ${type.ofType?.name}`,
    ]);
    expect(results.length).toBeGreaterThanOrEqual(7);
    for (const [name, result] of results) {
      expect(result).toBe(`NON_NULL OBJECT ${name![0]!.toUpperCase()}${name!.slice(1)}Payload`);
    }
  });
});
