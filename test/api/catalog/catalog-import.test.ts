/**
 * The whole catalogue in and out (issue 35): `GET /v1/brands/{brandId}/catalog` exports it as one JSON
 * document, `PUT` imports the same document idempotently by each object's id, in one unit of work (all or
 * nothing), through the single writes (their rules, their events, only for what changed); `?dryRun=true`
 * says what would change and writes nothing. Secret keys only; ids are a brand's own.
 */
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { beforeAll, describe, expect, it } from 'vitest';
import { catalogJsonSchema } from '../../../src/domain/catalog/catalog-schema.ts';
import { demoIds } from '../../../src/db/demo/ids.ts';
import { seedDemoDataIfEmpty } from '../../../src/db/demo/index.ts';
import { organizationSpec } from '../../../src/db/demo/brand-specs.ts';
import { startApp, type TestApp } from '../../support/app.ts';
import { freshDb } from '../../support/db.ts';
import { createApiKey, createBrand } from '../../../fixtures/factories/brands.ts';
import { createHost } from '../../../fixtures/factories/catalog.ts';

const db = await freshDb();
await seedDemoDataIfEmpty(db);
const LISBON = 'sk_test_lisbon_demo';
const TOKYO = 'sk_test_tokyo_demo';
const ORG: string = organizationSpec.apiKey.secret;
const lisbon = demoIds.brands.lisbon;
// An empty brand of the demo organization: no experiences, one host (hosts are not written through the API yet).
const empty = await createBrand(db, { organizationId: organizationSpec.id, name: 'Harbor Porto', currency: 'EUR' });
const emptyKey = (await createApiKey(db, { brandId: empty.id })).secret;
const host = await createHost(db, empty.id, { firstName: 'Rita', lastName: 'Sousa' });
let t: TestApp;

beforeAll(async () => {
  t = await startApp(db);
});

const url = (brandId: string, query = '') => `/v1/brands/${brandId}/catalog${query}`;
const exportOf = async (brandId: string, key = ORG) => {
  const res = await t.rest('GET', url(brandId), { key });
  expect(res.status).toBe(200);
  return res.body;
};
const put = (brandId: string, body: unknown, key = ORG, query = '') => t.rest('PUT', url(brandId, query), { key, body });
const eventCount = async () => Number(await db.value('SELECT count(*) FROM events'));
const lastSequence = async () => Number(await db.value('SELECT coalesce(max(sequence), 0) FROM events'));
const typesSince = (sequence: number) => db.values<string>('SELECT type FROM events WHERE sequence > ? ORDER BY sequence', sequence);
/** Everything the export shows but the instant it was taken. */
const content = ({ exportedAt: _at, ...rest }: Record<string, unknown>) => rest;

/** A small catalogue for the empty brand: one experience, its listing (published), two sessions. */
function porto(slug = 'douro-sunset-cruise') {
  const experienceId = randomUUID();
  return {
    experiences: [
      {
        id: experienceId,
        title: 'Douro Sunset Cruise',
        slug,
        headline: 'Six bridges at dusk',
        description: 'An hour on the river.',
        healthAndSafety: 'Life jackets provided.',
        category: { name: 'Boat tours' },
        hostedBy: { id: host.id },
        location: { longitude: -8.6109, latitude: 41.1408, name: 'Cais da Ribeira', timezoneId: 'Europe/Lisbon' },
        maxParticipantsCount: 10,
        sessionDurationMinutes: 60,
        coverPicture: { uri: { original: 'https://cdn.example/douro.jpg' }, altText: 'The Douro at dusk' },
        bookingAvailabilityMode: 'group',
        type: 'tour',
        priceTiers: [{ name: 'Adult', price: 25 }],
      },
    ],
    listings: [{ id: randomUUID(), published: true, experienceId, title: 'Douro Sunset Cruise', advertisedPrice: 25, startingPrice: 25 }],
    sessions: [
      { id: randomUUID(), experienceId, startDateTime: '2030-06-01T19:00', capacity: 10 },
      { id: randomUUID(), experienceId, startDateTime: '2030-06-02T19:00', capacity: 8 },
    ],
  };
}

describe('GET /v1/brands/{brandId}/catalog', () => {
  it("exports the demo brand's settings, experiences, listings and future sessions as one document", async () => {
    const document = await exportOf(lisbon, LISBON);
    expect(document.brandId).toBe(lisbon);
    expect(document.brand).toMatchObject({ name: 'Harbor Lisbon', currency: 'EUR' });
    expect(document.experiences.map((e: { id: string }) => e.id)).toContain(demoIds.experiences.tram28PhotoWalk);
    const tram = document.experiences.find((e: { id: string }) => e.id === demoIds.experiences.tram28PhotoWalk);
    const single = await t.rest('GET', `/v1/brands/${lisbon}/experiences/${tram.id}`, { key: LISBON });
    expect(tram).toMatchObject({ title: single.body.title, slug: single.body.slug, priceTiers: single.body.priceTiers });
    expect(document.listings.length).toBeGreaterThan(0);
    expect(document.listings[0]).toMatchObject({ published: true });
    expect(document.sessions.length).toBeGreaterThan(0);
    expect(Object.keys(document.sessions[0]).sort()).toEqual(['capacity', 'duration', 'experienceId', 'id', 'startDateTime']);
  });

  it('is valid against the published JSON Schema (docs/catalog.schema.json, generated from the zod schema and current)', async () => {
    const published = JSON.parse(await readFile('docs/catalog.schema.json', 'utf8'));
    expect(published).toEqual(catalogJsonSchema());
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats.default(ajv);
    const validate = ajv.compile(published);
    const document = await exportOf(lisbon, LISBON);
    expect(validate(document) ? [] : validate.errors).toEqual([]);
    expect(validate({ ...document, sessions: [{ ...document.sessions[0], capacity: -1 }] })).toBe(false);
    expect(validate({ ...document, extra: true })).toBe(false);
  });
});

describe('PUT /v1/brands/{brandId}/catalog', () => {
  it('imports an unchanged export into its own brand: nothing changes, no event is written', async () => {
    const document = await exportOf(lisbon);
    const events = await eventCount();
    const res = await put(lisbon, document);
    expect(res.status).toBe(200);
    expect(res.body.data.summary).toEqual({
      created: 0,
      updated: 0,
      unchanged: 1 + document.experiences.length + document.listings.length + document.sessions.length,
    });
    expect(await eventCount()).toBe(events);
    expect(content(await exportOf(lisbon))).toEqual(content(document));
  });

  it('applies what changed, recording only those events, and is idempotent on a second import', async () => {
    const document = await exportOf(lisbon);
    document.experiences[1].priceTiers[0].price += 1;
    document.sessions[0].capacity += 2;
    const events = await eventCount();
    const sequence = await lastSequence();
    const res = await put(lisbon, document);
    expect(res.status).toBe(200);
    expect(res.body.data.summary).toMatchObject({ created: 0, updated: 2 });
    expect(res.body.data.changes.filter((c: { change: string }) => c.change === 'updated')).toEqual([
      { type: 'experience', id: document.experiences[1].id, path: 'experiences.1', change: 'updated' },
      { type: 'session', id: document.sessions[0].id, path: 'sessions.0', change: 'updated' },
    ]);
    expect(await typesSince(sequence)).toEqual(['experience.updated', 'session.updated']);
    const again = await put(lisbon, document);
    expect(again.body.data.summary.updated).toBe(0);
    expect(await eventCount()).toBe(events + 2);
  });

  it('creates a catalogue in an empty brand: the experience, its published listing and the sessions, each with its event', async () => {
    const document = porto();
    const events = await eventCount();
    const sequence = await lastSequence();
    const res = await put(empty.id, document, emptyKey);
    expect(res.status).toBe(200);
    expect(res.body.data.summary).toEqual({ created: 4, updated: 0, unchanged: 0 });
    expect(await typesSince(sequence)).toEqual([
      'experience.created',
      'listing.created',
      'listing.published',
      'session.created',
      'session.created',
    ]);
    const featured = await t.rest('GET', '/v3/listings/featured', { key: emptyKey });
    expect(featured.body.data.map((l: { id: string; title: string }) => [l.id, l.title])).toEqual([
      [document.listings[0]!.id, 'Douro Sunset Cruise'],
    ]);
    const exported = await exportOf(empty.id, emptyKey);
    expect(exported.experiences.map((e: { id: string }) => e.id)).toEqual([document.experiences[0]!.id]);
    expect(
      exported.sessions.map((s: { id: string; startDateTime: string; capacity: number }) => [s.id, s.startDateTime, s.capacity]),
    ).toEqual([
      [document.sessions[0]!.id, '2030-06-01T19:00:00', 10],
      [document.sessions[1]!.id, '2030-06-02T19:00:00', 8],
    ]);
    // Its own export imports back as it is.
    const again = await put(empty.id, exported, emptyKey);
    expect(again.body.data.summary).toEqual({ created: 0, updated: 0, unchanged: 5 });
    expect(await eventCount()).toBe(events + 5);
  });

  it('with dryRun=true lists what would change per object and writes nothing', async () => {
    const document = await exportOf(lisbon);
    const before = content(await exportOf(lisbon));
    document.brand.name = 'Harbor Lisbon (renamed)';
    document.experiences[0].title = 'Tram 28, at dawn';
    const fresh = porto('douro-by-night');
    const events = await eventCount();
    const res = await put(lisbon, document, ORG, '?dryRun=true');
    expect(res.status).toBe(200);
    expect(res.body.data.dryRun).toBe(true);
    expect(res.body.data.changes.slice(0, 2)).toEqual([
      { type: 'brand', id: lisbon, path: 'brand', change: 'updated' },
      { type: 'experience', id: document.experiences[0].id, path: 'experiences.0', change: 'updated' },
    ]);
    expect(res.body.data.summary).toEqual({
      created: 0,
      updated: 2,
      unchanged: document.experiences.length + document.listings.length + document.sessions.length - 1,
    });
    expect(await eventCount()).toBe(events);
    expect(content(await exportOf(lisbon))).toEqual(before);
    // New objects are listed as created, and still nothing is written.
    const created = await put(empty.id, fresh, emptyKey, '?dryRun=true');
    expect(created.body.data.changes.map((c: { type: string; change: string }) => `${c.type} ${c.change}`)).toEqual([
      'experience created',
      'listing created',
      'session created',
      'session created',
    ]);
    expect(await eventCount()).toBe(events);
    expect((await exportOf(empty.id, emptyKey)).experiences.map((e: { id: string }) => e.id)).not.toContain(fresh.experiences[0]!.id);
  });

  it("refuses another brand's ids (ids are a brand's own) and writes nothing", async () => {
    const document = await exportOf(lisbon);
    const events = await eventCount();
    const { brand: _settings, ...catalogue } = document;
    const res = await put(empty.id, catalogue, emptyKey);
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'VALIDATION_FAILED', details: { field: 'experiences.0.id' } });
    expect(await eventCount()).toBe(events);
  });

  it('refuses the whole import for a bad field in the third experience, naming its path, and writes nothing', async () => {
    const document = await exportOf(lisbon);
    const before = await exportOf(lisbon);
    document.experiences[0].title = 'Changed first';
    document.experiences[2].hostedBy = { id: randomUUID() };
    const events = await eventCount();
    const res = await put(lisbon, document);
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'VALIDATION_FAILED', details: { field: 'experiences.2.hostedBy.id' } });
    expect(res.body.error.message).toContain('experiences.2.hostedBy.id');
    expect(await eventCount()).toBe(events);
    expect(content(await exportOf(lisbon))).toEqual(content(before));
  });

  it("refuses another brand's key and publishable keys (as every catalogue write does), writing nothing", async () => {
    const document = await exportOf(lisbon);
    document.brand.name = 'Taken over';
    const events = await eventCount();
    expect((await t.rest('GET', url(lisbon), { key: TOKYO })).body.error.code).toBe('FORBIDDEN');
    const res = await put(lisbon, document, TOKYO);
    expect([res.status, res.body.error.code]).toEqual([403, 'FORBIDDEN']);
    const unknown = await put(randomUUID(), document, LISBON);
    expect([unknown.status, unknown.body.error.code]).toEqual([403, 'FORBIDDEN']);
    for (const method of ['GET', 'PUT'] as const) {
      const refused = await t.rest(method, url(lisbon), { key: 'pk_test_lisbon_demo', body: method === 'PUT' ? document : undefined });
      expect([refused.status, refused.body.error.code]).toEqual([403, 'FORBIDDEN']);
    }
    expect(await eventCount()).toBe(events);
    expect((await exportOf(lisbon)).brand.name).toBe('Harbor Lisbon');
  });
});

describe('npm run catalog (the CLI, over HTTP to a gateway on 127.0.0.1)', () => {
  // Four processes started with tsx: seconds each on a loaded machine.
  it('exports to a file and imports it back: a dry run, then an import that changes nothing', { timeout: 90_000 }, async () => {
    const address = await t.app.listen({ host: '127.0.0.1', port: 0 });
    const dir = await mkdtemp(join(tmpdir(), 'tessera-catalog-'));
    const file = join(dir, 'lisbon.json');
    const cli = (...args: string[]) =>
      promisify(execFile)('node_modules/.bin/tsx', ['src/cli/catalog.ts', ...args], {
        env: { ...process.env, TESSERA_URL: address, TESSERA_API_KEY: LISBON },
      });
    await cli('export', '--brand', lisbon, '--out', file);
    const written = JSON.parse(await readFile(file, 'utf8'));
    expect(content(written)).toEqual(content(await exportOf(lisbon)));
    written.experiences[0].title = 'Tram 28, from the CLI';
    await writeFile(file, JSON.stringify(written));
    const events = await eventCount();
    const dry = await cli('import', '--file', file, '--dry-run');
    expect(JSON.parse(dry.stdout).summary).toMatchObject({ created: 0, updated: 1 });
    expect(dry.stderr).toContain('Dry run (nothing written)');
    expect(await eventCount()).toBe(events);
    const done = await cli('import', '--file', file);
    expect(JSON.parse(done.stdout)).toMatchObject({ dryRun: false, summary: { created: 0, updated: 1 } });
    expect((await exportOf(lisbon)).experiences[0].title).toBe('Tram 28, from the CLI');
    const refused = await cli('import', '--file', file, '--brand', demoIds.brands.tokyo).catch(
      (error: { code: number; stderr: string }) => error,
    );
    expect(refused).toMatchObject({ code: 1, stderr: expect.stringContaining('403') });
  });
});
