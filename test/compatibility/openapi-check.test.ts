/**
 * The OpenAPI compatibility check itself, on a small document edited one way at a time, and on a copy of
 * the document Tessera serves with a deliberately breaking edit.
 */
import { describe, expect, it } from 'vitest';
import { currentOpenApiDocument } from '../../src/cli/contract/current.ts';
import { openapiChanges, type OpenApiDocument } from '../../src/cli/contract/openapi-changes.ts';

const GET = 'GET /v1/things/{thingId}';
const POST = 'POST /v1/things';

function base(): any {
  return {
    openapi: '3.1.0',
    paths: {
      '/v1/things/{thingId}': {
        get: {
          parameters: [
            { in: 'path', name: 'thingId', required: true, schema: { type: 'string' } },
            { in: 'query', name: 'locale', schema: { type: 'string' } },
          ],
          responses: {
            200: {
              description: 'The thing',
              headers: { 'Cache-Control': { schema: { type: 'string' } } },
              content: {
                'application/json': {
                  schema: { type: 'object', required: ['data'], properties: { data: { $ref: '#/components/schemas/Thing' } } },
                },
              },
            },
            404: { description: 'Not found' },
          },
        },
      },
      '/v1/things': {
        post: {
          requestBody: {
            required: true,
            content: {
              'application/json': {
                schema: {
                  type: 'object',
                  required: ['name'],
                  additionalProperties: false,
                  properties: {
                    name: { type: 'string' },
                    size: { enum: ['small', 'large'] },
                    tags: { type: 'array', items: { type: 'string' } },
                  },
                },
              },
            },
          },
          responses: {
            201: { description: 'Created', content: { 'application/json': { schema: { $ref: '#/components/schemas/Thing' } } } },
          },
        },
      },
    },
    components: {
      schemas: {
        Thing: {
          type: 'object',
          required: ['id', 'name', 'status', 'price'],
          properties: {
            id: { type: 'string' },
            name: { type: 'string' },
            status: {
              anyOf: [
                { type: 'string', enum: ['open'] },
                { type: 'string', enum: ['closed'] },
              ],
            },
            price: { type: 'integer' },
            note: { anyOf: [{ type: 'string' }, { type: 'null' }] },
            parts: { type: 'array', items: { $ref: '#/components/schemas/Thing' } },
          },
        },
      },
    },
  };
}

/** The changes from the base document to an edited copy of it. */
function changes(edit: (document: any) => void): Array<[string, string, string]> {
  const edited = base();
  edit(edited);
  return openapiChanges(base() as OpenApiDocument, edited as OpenApiDocument).map((c) => [c.criticality, c.path, c.message]);
}

const thing = (document: any) => document.components.schemas.Thing;
const body = (document: any) => document.paths['/v1/things'].post.requestBody.content['application/json'].schema;
const both = (message: string): Array<[string, string, string]> => [
  ['BREAKING', GET, `${GET}: 200 answer data.${message}`],
  ['BREAKING', POST, `${POST}: 201 answer ${message}`],
];

describe('the OpenAPI check', () => {
  it('finds nothing between a document and itself, through recursive schemas', () => {
    expect(changes(() => {})).toEqual([]);
  });

  it('fails on a removed operation, unless the baseline deprecated it', () => {
    expect(changes((d) => delete d.paths['/v1/things'])).toEqual([['BREAKING', POST, `${POST}: the operation was removed`]]);
    const deprecated = base();
    deprecated.paths['/v1/things'].post.deprecated = true;
    const removed = base();
    delete removed.paths['/v1/things'];
    expect(openapiChanges(deprecated, removed)).toEqual([]);
  });

  it('takes a renamed path parameter for the same address, and a header in any case', () => {
    expect(
      changes((d) => {
        d.paths['/v1/things/{id}'] = d.paths['/v1/things/{thingId}'];
        delete d.paths['/v1/things/{thingId}'];
        d.paths['/v1/things/{id}'].get.parameters[0].name = 'id';
      }),
    ).toEqual([]);
    const withHeader = (name: string) => {
      const document = base();
      document.paths['/v1/things/{thingId}'].get.parameters.push({ in: 'header', name, required: true, schema: { type: 'string' } });
      return document;
    };
    expect(openapiChanges(withHeader('Tenant-Id'), withHeader('tenant-id'))).toEqual([]);
  });

  it('fails on a removed response property, unless the baseline deprecated it', () => {
    expect(changes((d) => delete thing(d).properties.note)).toEqual(both('note was removed'));
    const deprecated = base();
    thing(deprecated).properties.note.deprecated = true;
    const removed = base();
    delete thing(removed).properties.note;
    expect(openapiChanges(deprecated, removed)).toEqual([]);
  });

  it('fails on a response property of another type, one that may be null, one that may be absent', () => {
    expect(changes((d) => (thing(d).properties.price = { type: 'string' }))).toEqual(both('price changed type from integer to string'));
    expect(changes((d) => (thing(d).properties.price = { type: 'number' }))).toEqual(both('price changed type from integer to number'));
    expect(changes((d) => (thing(d).properties.price = { type: ['integer', 'null'] }))).toEqual(both('price may now be null'));
    expect(changes((d) => (thing(d).required = ['id', 'name', 'status']))).toEqual(both('price may now be absent'));
  });

  it('lets a response narrow and grow: a number that is an integer, a null that is gone, a new property', () => {
    expect(
      changes((d) => {
        thing(d).properties.note = { type: 'string' };
        thing(d).properties.color = { type: 'string' };
      }),
    ).toEqual([]);
  });

  it('fails on a response enum value removed, and warns of one added', () => {
    expect(changes((d) => (thing(d).properties.status = { type: 'string', enum: ['open'] }))).toEqual(
      both('status lost the enum values "closed"'),
    );
    expect(changes((d) => thing(d).properties.status.anyOf.push({ type: 'string', enum: ['archived'] }))).toEqual([
      ['DANGEROUS', GET, `${GET}: 200 answer data.status has new enum values "archived"`],
      ['DANGEROUS', POST, `${POST}: 201 answer status has new enum values "archived"`],
    ]);
  });

  it('fails on a request property newly required, removed, or refusing what it took', () => {
    expect(changes((d) => body(d).required.push('size'))).toEqual([['BREAKING', POST, `${POST}: request body size is newly required`]]);
    expect(changes((d) => (body(d).properties.size.enum = ['large']))).toEqual([
      ['BREAKING', POST, `${POST}: request body size no longer accepts "small"`],
    ]);
    expect(changes((d) => (body(d).properties.tags.items = { type: 'integer' }))).toEqual([
      ['BREAKING', POST, `${POST}: request body tags[] changed type from string to integer`],
    ]);
    expect(changes((d) => delete body(d).properties.tags)).toEqual([
      ['BREAKING', POST, `${POST}: request body tags is no longer accepted`],
    ]);
  });

  it('lets a request take more: an optional property, an enum value, a wider type', () => {
    expect(
      changes((d) => {
        body(d).properties.color = { type: 'string' };
        body(d).properties.size.enum.push('medium');
        body(d).properties.tags.items = { type: ['string', 'null'] };
      }),
    ).toEqual([]);
  });

  it('fails on a parameter newly required or removed, unless the baseline deprecated it', () => {
    const parameters = (d: any) => d.paths['/v1/things/{thingId}'].get.parameters;
    expect(changes((d) => (parameters(d)[1].required = true))).toEqual([
      ['BREAKING', GET, `${GET}: the query parameter locale is newly required`],
    ]);
    expect(changes((d) => parameters(d).push({ in: 'header', name: 'Tenant', required: true }))).toEqual([
      ['BREAKING', GET, `${GET}: the header parameter Tenant is newly required`],
    ]);
    expect(changes((d) => parameters(d).pop())).toEqual([['BREAKING', GET, `${GET}: the query parameter locale was removed`]]);
    const deprecated = base();
    parameters(deprecated)[1].deprecated = true;
    const removed = base();
    parameters(removed).pop();
    expect(openapiChanges(deprecated, removed)).toEqual([]);
  });

  it('fails on a success answer, media type or header gone, not on an error answer gone', () => {
    const get = (d: any) => d.paths['/v1/things/{thingId}'].get;
    expect(changes((d) => delete get(d).responses[404])).toEqual([]);
    expect(changes((d) => delete get(d).responses[200])).toEqual([['BREAKING', GET, `${GET}: no longer answers 200`]]);
    expect(changes((d) => delete get(d).responses[200].headers['Cache-Control'])).toEqual([
      ['BREAKING', GET, `${GET}: the 200 answer lost its Cache-Control header`],
    ]);
    expect(
      changes((d) => {
        get(d).responses[200].content = { 'text/csv': { schema: { type: 'string' } } };
      }),
    ).toEqual([['BREAKING', GET, `${GET}: the 200 answer is no longer application/json`]]);
  });
});

describe('the OpenAPI check on the document Tessera serves', () => {
  it('finds nothing between it and itself, and a removed answer property in every operation that answers it', async () => {
    const served = await currentOpenApiDocument();
    expect(openapiChanges(served, served)).toEqual([]);
    const edited: any = structuredClone(served);
    // A component a success answer refers to, with a required property to remove.
    const answers = JSON.stringify(
      Object.values<any>(edited.paths).flatMap((item) =>
        Object.values<any>(item).flatMap((o) => Object.entries(o.responses).filter(([s]) => s.startsWith('2'))),
      ),
    );
    const [name, schema] = Object.entries<any>(edited.components.schemas).find(
      ([n, s]) => answers.includes(`"#/components/schemas/${n}"`) && s.required?.length > 0 && s.properties,
    )!;
    const property = schema.required[0];
    delete schema.properties[property];
    schema.required = schema.required.slice(1);
    const found = openapiChanges(served, edited).filter((c) => c.criticality === 'BREAKING');
    expect(found.length, `${name}.${property} removed`).toBeGreaterThan(0);
    expect(found.every((c) => c.message.endsWith(`${property} was removed`))).toBe(true);
  });
});
