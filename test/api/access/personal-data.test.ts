/**
 * Personal data follows the key: a publishable key (public, in a web page's source) never receives other
 * people's e-mail addresses or phone numbers. On the demo data, every REST route a publishable key may
 * read (from the OpenAPI document) and every GraphQL field it may reach (built from the schema, all
 * fields of every type down from the root fields it may use) is walked for every brand and experience,
 * and each answer is searched for the contacts stored in the database and for anything shaped like an
 * e-mail address. A brand's own contact address (its settings' `brandEmail`) is the business's, published
 * on purpose, and the only address allowed. Secret keys keep the spec's full shapes. The checkout's own
 * answers (the buyer's own details, sent by the buyer) are not other people's data and are not walked.
 */
import {
  buildClientSchema,
  getNamedType,
  getNullableType,
  isLeafType,
  isNonNullType,
  isObjectType,
  type GraphQLField,
  type GraphQLObjectType,
  type GraphQLSchema,
  type IntrospectionQuery,
  getIntrospectionQuery,
  isAbstractType,
} from 'graphql';
import { beforeAll, describe, expect, it } from 'vitest';
import { demoIds } from '../../../src/db/demo/ids.ts';
import { demoPublishableKey } from '../../../src/db/demo/brands.ts';
import { seedDemoDataIfEmpty } from '../../../src/db/demo/index.ts';
import { publishableQueryFields } from '../../../src/graphql/publishable.ts';
import { createPublishableKey } from '../../../fixtures/factories/brands.ts';
import { startApp, type TestApp } from '../../support/app.ts';
import { freshDb } from '../../support/db.ts';

const db = await freshDb();
await seedDemoDataIfEmpty(db);
const brands = Object.values(demoIds.brands);
const experiences = Object.values(demoIds.experiences);
const publishableKeys = new Map<string, string>([
  [demoIds.brands.lisbon, demoPublishableKey.secret],
  [demoIds.brands.tokyo, (await createPublishableKey(db, demoIds.brands.tokyo, ['https://tokyo.example'])).secret],
  [demoIds.brands.kayak, (await createPublishableKey(db, demoIds.brands.kayak, ['https://kayak.example'])).secret],
]);
const LISBON_SECRET = 'sk_test_lisbon_demo';
let t: TestApp;
/** Every e-mail address and phone number the database holds about people. */
let contacts: Set<string>;
/** The brands' own contact addresses, public on purpose. */
let brandEmails: Set<string>;

beforeAll(async () => {
  t = await startApp(db, { now: () => new Date('2026-12-01T09:00:00.000Z') });
  const rows = await db.all<{ contact: string | null }>(
    `SELECT email_address AS contact FROM hosts UNION SELECT phone_number FROM hosts
     UNION SELECT email_address FROM reviewers UNION SELECT phone_number FROM reviewers
     UNION SELECT email_address FROM participants UNION SELECT phone_number FROM participants
     UNION SELECT purchaser_email FROM bookings UNION SELECT purchaser_phone FROM bookings
     UNION SELECT purchaser_email_key FROM waitlist_entries`,
  );
  contacts = new Set(rows.map((row) => row.contact).filter((contact): contact is string => !!contact && contact.trim() !== ''));
  brandEmails = new Set((await db.all<{ email: string }>('SELECT brand_email AS email FROM brands')).map((row) => row.email));
});

const EMAIL = /[^\s@"]+@[^\s@"]+\.[a-z]{2,}/i;

/** Where in `body` a contact shows: the paths of the values that hold one (none: `[]`). */
function contactsIn(body: unknown, path = ''): string[] {
  if (typeof body === 'string') {
    return contacts.has(body.trim()) || (EMAIL.test(body) && !brandEmails.has(body)) ? [`${path}: ${body}`] : [];
  }
  if (Array.isArray(body)) return body.flatMap((item, i) => contactsIn(item, `${path}[${i}]`));
  if (body && typeof body === 'object') {
    return Object.entries(body).flatMap(([key, value]) => contactsIn(value, path ? `${path}.${key}` : key));
  }
  return [];
}

describe('personal data with a publishable key', () => {
  it('the stored contacts the walk looks for include the reviewers’ and hosts’ (so the walk can fail)', () => {
    expect(contacts.has('ines.carvalho@harborcollection.example')).toBe(true);
    expect(contacts.has('+351 912 480 117')).toBe(true);
    expect(contacts.size).toBeGreaterThan(50);
  });

  it('no REST route a publishable key may read answers with an e-mail address or phone number', async () => {
    const document = (await t.rest('GET', '/openapi.json')).body as {
      paths: Record<string, Record<string, { security?: Array<Record<string, unknown>> }>>;
    };
    const routes = Object.entries(document.paths).flatMap(([path, operations]) =>
      Object.entries(operations)
        .filter(([method, operation]) => method === 'get' && (operation.security ?? []).some((s) => 'Publishable-Key' in s))
        .map(([, operation]) => ({ path, operation })),
    );
    expect(routes.map((route) => route.path).sort()).toEqual([
      '/v1/brands/{brandId}/experiences/{experienceId}',
      '/v1/brands/{brandId}/experiences/{experienceId}/availability',
      '/v1/brands/{brandId}/experiences/{experienceId}/custom-questions',
      '/v1/brands/{brandId}/hosts',
      '/v1/brands/{brandId}/hosts/{hostId}',
      '/v1/brands/{brandId}/listings/{listingId}',
      '/v1/brands/{brandId}/settings',
      '/v1/experiences/{experienceId}/reviews',
      '/v3/listings/featured',
    ]);
    const query: Record<string, string> = { from: '2026-12-01', to: '2027-01-29', limit: '100' };
    let answered = 0;
    const leaks: string[] = [];
    for (const brandId of brands) {
      const key = publishableKeys.get(brandId)!;
      for (const { path } of routes) {
        const ids = path.includes('{experienceId}')
          ? experiences
          : path.includes('{listingId}')
            ? ((await t.rest('GET', '/v3/listings/featured?limit=100', { key })).body.data as Array<{ id: string }>).map((l) => l.id)
            : path.includes('{hostId}')
              ? ((await t.rest('GET', `/v1/brands/${brandId}/hosts`, { key })).body.data as Array<{ id: string }>).map((h) => h.id)
              : [''];
        for (const id of ids) {
          const url = path.replace('{brandId}', brandId).replace('{experienceId}', id).replace('{listingId}', id).replace('{hostId}', id);
          const params = new URLSearchParams(
            url.endsWith('/availability') ? { from: query.from!, to: query.to! } : url.endsWith('/reviews') ? { limit: query.limit! } : {},
          );
          for (let page = 1; ; page++) {
            if (url.endsWith('/reviews')) params.set('page', String(page));
            const res = await t.rest('GET', `${url}?${params}`, { key });
            if (res.status !== 200) break;
            answered += 1;
            leaks.push(...contactsIn(res.body, `GET ${url}?${params}`));
            if (!url.endsWith('/reviews') || res.body[0].items.length < 100) break;
          }
        }
      }
    }
    expect(leaks).toEqual([]);
    // Every brand's settings, hosts and listings, and each experience of its own brand on four routes.
    expect(answered).toBeGreaterThanOrEqual(3 * 3 + experiences.length * 4);
  });

  it('reviewers appear by first name and last initial, hosts by name, picture and description (REST)', async () => {
    const reviews = (key: string) => t.rest('GET', `/v1/experiences/${demoIds.experiences.tram28PhotoWalk}/reviews?limit=1`, { key });
    const [pub, secret] = [(await reviews(demoPublishableKey.secret)).body[0].items[0], (await reviews(LISBON_SECRET)).body[0].items[0]];
    expect(pub.id).toBe(secret.id);
    expect(pub.reviewer).toEqual({
      id: secret.reviewer.id,
      firstName: secret.reviewer.firstName,
      lastName: `${secret.reviewer.lastName[0]}.`,
      fullName: `${secret.reviewer.firstName} ${secret.reviewer.lastName[0]}.`,
      profilePicture: secret.reviewer.profilePicture,
    });
    const { emailAddress, phoneNumber, ...host } = secret.hostedBy;
    expect([typeof emailAddress, typeof phoneNumber]).toEqual(['string', 'string']);
    expect(pub.hostedBy).toEqual(host);
    const hosts = async (key: string) => (await t.rest('GET', `/v1/brands/${demoIds.brands.lisbon}/hosts`, { key })).body.data;
    const [publicHosts, secretHosts] = [await hosts(demoPublishableKey.secret), await hosts(LISBON_SECRET)];
    expect(publicHosts).toEqual(secretHosts.map(({ emailAddress: _, ...rest }: { emailAddress: string }) => rest));
    expect(secretHosts.find((h: { emailAddress: string }) => h.emailAddress === 'ines.carvalho@harborcollection.example')).toBeDefined();
  });

  it('reviewers’ pictures are named without the last name a publishable key sees as an initial', async () => {
    const named: string[] = [];
    let pictures = 0;
    for (const experienceId of experiences) {
      const url = `/v1/experiences/${experienceId}/reviews?limit=100`;
      const [pub, secret] = [
        await t.rest('GET', url, { key: demoPublishableKey.secret }),
        await t.rest('GET', url, { key: LISBON_SECRET }),
      ];
      if (pub.status !== 200) continue;
      pub.body[0].items.forEach((review: { reviewer: { profilePicture: { uri: Record<string, string> } } }, i: number) => {
        const lastName: string = secret.body[0].items[i].reviewer.lastName;
        const spelled = lastName
          .normalize('NFD')
          .replace(/[^A-Za-z]/g, '')
          .toLowerCase();
        for (const picture of Object.values(review.reviewer.profilePicture.uri)) {
          pictures += 1;
          if (picture.toLowerCase().includes(spelled)) named.push(`${picture} (${lastName})`);
        }
      });
    }
    expect(named).toEqual([]);
    expect(pictures).toBeGreaterThan(20);
  });

  it('no GraphQL field a publishable key may reach answers with an e-mail address or phone number; contacts are null', async () => {
    // Every field, four deep: beyond the cost budget, which is not what this sweep is about.
    const wide = await startApp(db, {
      now: () => new Date('2026-12-01T09:00:00.000Z'),
      graphql: { maxCost: 1_000_000, secretKeyMaxCost: 1_000_000 },
    });
    const introspection = await wide.gql(getIntrospectionQuery(), {}, { key: LISBON_SECRET });
    const schema = buildClientSchema(introspection.body.data as IntrospectionQuery);
    const leaks: string[] = [];
    let fieldsAsked = 0;
    for (const brandId of brands) {
      const key = publishableKeys.get(brandId)!;
      for (const rootName of Object.keys(publishableQueryFields)) {
        const root = schema.getQueryType()!.getFields()[rootName]!;
        const perExperience = root.args.some((arg) => arg.name === 'experienceId' || arg.name === 'id');
        for (const experienceId of perExperience ? experiences : [experiences[0]!]) {
          const values: Record<string, string> = { brandId, experienceId, id: experienceId, from: '2026-12-01', to: '2027-01-29' };
          if (root.name === 'node' || root.name === 'nodes') {
            // The experience again, by its global id.
            const read = await wide.gql(`{ experience(brandId: "${brandId}", id: "${experienceId}") { id } }`, {}, { key });
            values.id = values.ids =
              read.body.data.experience?.id ?? Buffer.from(`Experience:${brandId}:${experienceId}:en`).toString('base64url');
          }
          const args = argumentsOf(root, values);
          if (args === null) throw new Error(`no value for a required argument of Query.${rootName}`);
          const selection = selectAll(schema, getNamedType(root.type), 4, values);
          fieldsAsked += (selection.match(/\w+/g) ?? []).length;
          const res = await wide.gql(`{ ${rootName}${args}${selection} }`, {}, { key });
          expect(
            res.body.errors?.filter((e: { extensions?: { code?: string } }) => e.extensions?.code !== 'NOT_FOUND') ?? [],
            rootName,
          ).toEqual([]);
          leaks.push(...contactsIn(res.body.data, `${brandId} ${experienceId} ${rootName}`));
        }
      }
    }
    expect(leaks).toEqual([]);
    expect(fieldsAsked).toBeGreaterThan(1000);
    const contactsOf = `{ experience(brandId: "${demoIds.brands.lisbon}", id: "${demoIds.experiences.tram28PhotoWalk}") {
      hostedBy { emailAddress } reviews(first: 1) { edges { node { reviewer { lastName emailAddress phoneNumber } hostedBy { emailAddress phoneNumber } } } } } }`;
    const pub = (await t.gql(contactsOf, {}, { key: demoPublishableKey.secret })).body.data.experience;
    const secret = (await t.gql(contactsOf, {}, { key: LISBON_SECRET })).body.data.experience;
    expect(pub.hostedBy).toEqual({ emailAddress: null });
    expect(pub.reviews.edges[0].node).toEqual({
      reviewer: { lastName: `${secret.reviews.edges[0].node.reviewer.lastName[0]}.`, emailAddress: null, phoneNumber: null },
      hostedBy: { emailAddress: null, phoneNumber: null },
    });
    expect(secret.hostedBy.emailAddress).toMatch(EMAIL);
    expect(secret.reviews.edges[0].node.reviewer.emailAddress).toMatch(EMAIL);
  });
});

/** `(a: "x", b: "y")` for the field's arguments: required ones from `values` (null when one is missing), optional ones left out. */
function argumentsOf(field: GraphQLField<unknown, unknown>, values: Record<string, string>): string | null {
  const parts: string[] = [];
  for (const arg of field.args) {
    if (!isNonNullType(arg.type)) continue;
    const value = values[arg.name];
    if (value === undefined) return arg.defaultValue === undefined ? null : '';
    parts.push(`${arg.name}: ${JSON.stringify(value)}`);
  }
  return parts.length > 0 ? `(${parts.join(', ')})` : '';
}

/** Every field of `type` down to `depth` levels of objects, abstract types through each of their object types. */
function selectAll(schema: GraphQLSchema, type: ReturnType<typeof getNamedType>, depth: number, values: Record<string, string>): string {
  if (isLeafType(type)) return '';
  if (depth === 0) return ' { __typename }';
  // `node` is asked for an experience (the walk's document must stay under the token limit).
  const possible = isAbstractType(type) ? schema.getPossibleTypes(type).filter((t) => type.name !== 'Node' || t.name === 'Experience') : [];
  const objects: readonly GraphQLObjectType[] = isAbstractType(type) ? possible : isObjectType(type) ? [type] : [];
  const fragments = objects.map((object) => {
    const fields = Object.values(object.getFields()).flatMap((field) => {
      const args = argumentsOf(field, values);
      if (args === null) return [];
      // Through an abstract type, fields of one name may differ in type from one object type to another: aliased apart.
      const alias = objects.length > 1 ? `${object.name}_${field.name}: ` : '';
      return [`${alias}${field.name}${args}${selectAll(schema, getNamedType(getNullableType(field.type)), depth - 1, values)}`];
    });
    return `... on ${object.name} { __typename ${fields.join(' ')} }`;
  });
  return ` { ${fragments.join(' ')} }`;
}
