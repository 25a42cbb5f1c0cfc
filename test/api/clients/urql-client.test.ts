/**
 * urql (@urql/core, examples/clients/urql) against a gateway on a port, as a storefront uses it: queries
 * sent as GET with Lisbon's publishable key in `Authorization`, from the origin the key lists, and typed
 * by the codegen client preset (compiled by `tsc` with the rest, after `npm run codegen`).
 */
import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { beforeAll, describe, expect, it } from 'vitest';
import { createClient } from '../../../examples/clients/urql/src/client.ts';
import { AvailabilityQuery, CatalogueQuery, ExperienceQuery } from '../../../examples/clients/urql/src/operations.ts';
import { demoIds, seedDemoDataIfEmpty } from '../../../src/db/demo/index.ts';
import { startApp } from '../../support/app.ts';
import { CHECKOUT_NOW } from '../../support/clock.ts';
import { freshDb } from '../../support/db.ts';

const now = () => new Date(CHECKOUT_NOW);
const db = await freshDb();
const brandId = demoIds.brands.lisbon;

let baseUrl = '';
/** Every request urql sent: its method and, for a GET, the operation named in its URL. */
const sent: Array<{ method: string; operationName: string | null }> = [];
const recordingFetch: typeof fetch = async (input, init) => {
  sent.push({ method: init?.method ?? 'GET', operationName: new URL(String(input)).searchParams.get('operationName') });
  return fetch(input, init);
};

beforeAll(async () => {
  await seedDemoDataIfEmpty(db, now());
  const t = await startApp(db, { now });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  baseUrl = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
}, 60_000);

const storefront = () =>
  createClient({ baseUrl, publishableKey: 'pk_test_lisbon_demo', origin: 'http://localhost:5173', fetch: recordingFetch });

describe('urql with GET queries and the publishable key', () => {
  it('reads the catalogue over GET, typed from the schema', async () => {
    sent.length = 0;
    const result = await storefront().query(CatalogueQuery, { locale: 'pt' }).toPromise();
    expect(result.error).toBeUndefined();
    expect(result.data?.featuredListings?.map((listing) => [listing.title, listing.contentLanguage, listing.advertisedPrice])).toEqual([
      ['Sunset Sail on the Tagus', 'en', 65],
      ['Passeio fotográfico no elétrico 28', 'pt', 45],
      ['Noite de fado em Alfama', 'pt', 79],
      ['Pastel de Nata Workshop', 'en', 59],
      ['Sintra Day Trip', 'en', 79],
      ['Santos Populares: Saint Anthony’s Night in Alfama', 'en', 35],
    ]);
    expect(sent).toEqual([{ method: 'GET', operationName: 'UrqlCatalogue' }]);
  });

  it('reads an experience over GET', async () => {
    sent.length = 0;
    const result = await storefront().query(ExperienceQuery, { brandId, id: demoIds.experiences.tram28PhotoWalk }).toPromise();
    expect(result.error).toBeUndefined();
    expect(result.data?.experience).toMatchObject({
      title: 'Tram 28 Photo Walk',
      currency: 'EUR',
      location: { name: 'Praça Martim Moniz, tram 28 stop', timezoneId: 'Europe/Lisbon' },
    });
    expect(Object.keys(result.data?.experience?.coverPicture.uri ?? {})).toContain('original');
    expect(sent).toEqual([{ method: 'GET', operationName: 'UrqlExperience' }]);
  });

  it('reads availability over GET', async () => {
    sent.length = 0;
    const variables = { brandId, experienceId: demoIds.experiences.tram28PhotoWalk, from: '2026-11-28', to: '2026-11-28' };
    const result = await storefront().query(AvailabilityQuery, variables).toPromise();
    expect(result.error).toBeUndefined();
    // What the publishable key can hold: the brand's 50 % share of each 8-place session.
    expect(result.data?.availability?.map((session) => [session.startDateTime, session.remaining])).toEqual([
      ['2026-11-28T09:30:00', 4],
      ['2026-11-28T15:00:00', 4],
    ]);
    expect(sent).toEqual([{ method: 'GET', operationName: 'UrqlAvailability' }]);
  });
});

describe('the codegen scalars map (examples/clients/scalars.ts)', () => {
  const generated = readFileSync(new URL('../../../examples/clients/urql/src/__generated__/graphql.ts', import.meta.url), 'utf8');

  it('types the custom scalars as the map says, with nothing left unknown', () => {
    expect(generated).toContain('locale?: string | null | undefined;');
    expect(generated).toContain('from: string;');
    expect(generated).toContain('experienceId: string | null');
    expect(generated).toContain('coverPicture: { uri: Record<string, unknown> }');
    // In the result and variable types (the documents follow them), the preset's own helper and JSONObject's
    // type aside, no `unknown` or `any`: each would be a scalar without a mapping.
    const types = generated.slice(0, generated.indexOf('export const'));
    expect(types.replaceAll('[key: string]: unknown', '').replaceAll('Record<string, unknown>', '')).not.toMatch(/\b(unknown|any)\b/);
  });

  it('is the map docs/graphql.md shows', () => {
    const docs = readFileSync(new URL('../../../docs/graphql.md', import.meta.url), 'utf8');
    const map = readFileSync(new URL('../../../examples/clients/scalars.ts', import.meta.url), 'utf8');
    expect(docs).toContain(map.slice(map.indexOf('export const scalars')));
  });
});
