/**
 * The response cache keeps answers under the data version, which writes to UNVERSIONED_TABLES (bookings and
 * what they write) leave as it was (src/db/unversioned-tables.ts). That is right only while no cached answer
 * reads those tables: this runs every cached read of both faces on the demo data, as each demo key and the
 * organization key, GraphQL with every field its type has (four levels deep, no live type: what
 * cacheable.ts keeps), and records the tables each statement names, on either engine. A field added later
 * that reads a booking table fails here until the table moves the version again.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import {
  getNamedType,
  isAbstractType,
  isLeafType,
  isNonNullType,
  isObjectType,
  type GraphQLNamedType,
  type GraphQLObjectType,
  type GraphQLSchema,
} from 'graphql';
import { demoIds } from '../../../src/db/demo/ids.ts';
import { seedDemoDataIfEmpty } from '../../../src/db/demo/index.ts';
import { UNVERSIONED_TABLES } from '../../../src/db/unversioned-tables.ts';
import { LIVE_TYPES } from '../../../src/graphql/cacheable.ts';
import { buildTesseraSchema } from '../../../src/graphql/schema.ts';
import { startApp, type TestApp } from '../../support/app.ts';
import { freshDb } from '../../support/db.ts';
import { recordStatements } from '../../support/statements.ts';

const db = await freshDb();
await seedDemoDataIfEmpty(db);
let t: TestApp;
beforeAll(async () => {
  t = await startApp(db);
});
const schema = buildTesseraSchema();

/** Every field of `type` a cached answer may select, to `depth` levels: no live type, no type twice on a path, no required argument. */
function everyField(schema: GraphQLSchema, type: GraphQLNamedType, depth: number, path: ReadonlySet<string> = new Set()): string {
  if (isLeafType(type)) return '';
  if (depth === 0) return '{ __typename }';
  const objects: readonly GraphQLObjectType[] = isAbstractType(type) ? schema.getPossibleTypes(type) : isObjectType(type) ? [type] : [];
  const inner = objects.map((object) => {
    const on = new Set([...path, object.name]);
    const fields = Object.values(object.getFields()).flatMap((field) => {
      const named = getNamedType(field.type);
      if (LIVE_TYPES.has(named.name) || field.name.startsWith('_') || (!isLeafType(named) && on.has(named.name))) return [];
      if (field.args.some((arg) => isNonNullType(arg.type) && arg.defaultValue === undefined)) return [];
      return [`${field.name} ${everyField(schema, named, depth - 1, on)}`];
    });
    return `... on ${object.name} { __typename ${fields.join(' ')} }`;
  });
  return `{ ${inner.join(' ')} }`;
}

const TABLE_NAMED = /\b(?:from|join|into|update)\s+"?([a-z_]+)"?/gi;

describe('what cached answers read', () => {
  it('is none of the tables whose writes leave the data version as it was: every catalogue read of both faces, every field', async () => {
    const read = new Set<string>();
    const restore = recordStatements(db, (sql) => {
      for (const [, table] of sql.matchAll(TABLE_NAMED)) read.add(table!);
    });
    const noErrors = (answer: { status: number; body: any }) =>
      expect([
        answer.status,
        (answer.body.errors ?? []).filter((e: { extensions?: { code?: string } }) => e.extensions?.code !== 'NOT_FOUND'),
      ]).toEqual([200, []]);
    try {
      const query = schema.getQueryType()!.getFields();
      const select = (field: string) => everyField(schema, getNamedType(query[field]!.type), 4);
      // The organization key reads both Harbor brands: a key lookup of its own (organizations).
      const callers = [
        ...Object.entries(demoIds.brands).map(([name, brandId]) => ({ key: `sk_test_${name}_demo`, headers: {}, brandId })),
        { key: 'sk_test_harbor_org_demo', headers: { 'tessera-brand-id': demoIds.brands.tokyo }, brandId: demoIds.brands.tokyo },
      ];
      for (const { key, headers, brandId } of callers) {
        const as = { headers: { authorization: `Bearer ${key}`, ...headers } };
        noErrors(await t.gql(`query ($b: UUID!) { brandSettings(brandId: $b) ${select('brandSettings')} }`, { b: brandId }, as));
        noErrors(await t.gql(`query ($b: UUID!) { hosts(brandId: $b) ${select('hosts')} }`, { b: brandId }, as));
        for (const version of ['PUBLISHED', 'LATEST']) {
          noErrors(
            await t.gql(
              `query ($b: UUID, $v: ContentVersion) { featuredListings(brandId: $b, contentVersion: $v) ${select('featuredListings')} }`,
              { b: brandId, v: version },
              as,
            ),
          );
          expect((await t.rest('GET', `/v3/listings/featured?version=${version.toLowerCase()}`, as)).status).toBe(200);
        }
        expect((await t.rest('GET', `/v1/brands/${brandId}/settings`, as)).status).toBe(200);
        const hosts = await t.rest('GET', `/v1/brands/${brandId}/hosts`, as);
        for (const host of hosts.body.data) expect((await t.rest('GET', `/v1/brands/${brandId}/hosts/${host.id}`, as)).status).toBe(200);
        for (const experienceId of Object.values(demoIds.experiences)) {
          const answer = await t.gql(
            `query ($b: UUID!, $e: UUID!) { experience(brandId: $b, id: $e) ${select('experience')} experienceReviews(experienceId: $e) ${select('experienceReviews')} }`,
            { b: brandId, e: experienceId },
            as,
          );
          noErrors(answer);
          if (answer.body.data.experience === null) continue;
          for (const path of ['', '/custom-questions']) {
            expect((await t.rest('GET', `/v1/brands/${brandId}/experiences/${experienceId}${path}`, as)).status).toBe(200);
          }
          expect((await t.rest('GET', `/v1/experiences/${experienceId}/reviews`, as)).status).toBe(200);
        }
        for (const listingId of Object.values(demoIds.listings)) {
          const answer = await t.rest('GET', `/v1/brands/${brandId}/listings/${listingId}`, as);
          expect([200, 404]).toContain(answer.status);
        }
      }
    } finally {
      restore();
    }
    // What the catalogue is made of, so the reads above did reach it all.
    for (const table of [
      'api_keys',
      'brands',
      'experiences',
      'experience_questions',
      'price_tiers',
      'reviews',
      'hosts',
      'listings',
      'listing_contents',
      'media',
      'add_ons',
    ]) {
      expect(read).toContain(table);
    }
    expect([...read].filter((table) => UNVERSIONED_TABLES.has(table))).toEqual([]);
  });
});
