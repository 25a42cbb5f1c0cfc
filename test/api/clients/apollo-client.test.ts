/**
 * Apollo Client 4 (examples/clients/apollo) against a gateway on a port, with the demo data and Lisbon's
 * publishable key from the origin it lists: a storefront's purchase read back from one normalized cache,
 * and the same listing and experience in other languages and content versions through one cache, each
 * showing its own title. Apollo runs in development mode and any warning it prints fails the test.
 */
import '../../support/apollo-dev.ts';
import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { readFileSync } from 'node:fs';
import { ApolloClient, HttpLink, InMemoryCache, setLogVerbosity } from '@apollo/client';
import { loadDevMessages, loadErrorMessages } from '@apollo/client/dev';
import { buildASTSchema, isObjectType, parse } from 'graphql';
import { beforeAll, describe, expect, it } from 'vitest';
import { valueObjectTypes } from '../../../examples/clients/apollo/src/cache.ts';
import { createClient, withSecretKey } from '../../../examples/clients/apollo/src/client.ts';
import {
  AvailabilityQuery,
  BookingQuery,
  CancelMutation,
  ExperienceMapQuery,
  ExperienceQuery,
  FeaturedListingsQuery,
  HoldMutation,
} from '../../../examples/clients/apollo/src/operations.ts';
import { SandboxProcessor } from '../../../src/adapters/sandbox-processor.ts';
import { demoIds, seedDemoDataIfEmpty } from '../../../src/db/demo/index.ts';
import { loadTypeDefs } from '../../../src/graphql/server.ts';
import { startApp } from '../../support/app.ts';
import { CHECKOUT_NOW } from '../../support/clock.ts';
import { freshDb } from '../../support/db.ts';
import { trapWarnings } from '../../support/warning-trap.ts';

const now = () => new Date(CHECKOUT_NOW);
const db = await freshDb();
const warnings = trapWarnings();
const brandId = demoIds.brands.lisbon;
/** Lisbon's demo keys (README, Demo data): the publishable one reads and checks out, the secret one reads and cancels bookings. */
const publishableKey = 'pk_test_lisbon_demo';
const secretKey = 'sk_test_lisbon_demo';
/** The origin Lisbon's publishable key lists (the example booking page's). */
const origin = 'http://localhost:5173';

let baseUrl = '';
/** Every request the clients sent, as `METHOD operationName`. */
const sent: string[] = [];
const recordingFetch: typeof fetch = async (input, init) => {
  const body = typeof init?.body === 'string' ? (JSON.parse(init.body) as { operationName?: string }) : {};
  sent.push(`${init?.method ?? 'GET'} ${body.operationName ?? String(input)}`);
  return fetch(input, init);
};

beforeAll(async () => {
  // Apollo's messages in full, and whatever its default verbosity, its warnings printed (and caught).
  loadDevMessages();
  loadErrorMessages();
  setLogVerbosity('warn');
  await seedDemoDataIfEmpty(db, now());
  const t = await startApp(db, { now, payments: new SandboxProcessor({ now }) });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  baseUrl = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
}, 60_000);

const storefront = () => createClient({ baseUrl, publishableKey: publishableKey, origin, fetch: recordingFetch });

describe('the cache module (examples/clients/apollo/src/cache.ts)', () => {
  it('merges every object type of the schema without an id, and no other', () => {
    const schema = buildASTSchema(parse(loadTypeDefs()));
    const roots = [schema.getQueryType(), schema.getMutationType(), schema.getSubscriptionType()];
    const withoutId = Object.values(schema.getTypeMap())
      .filter((type) => isObjectType(type) && !type.name.startsWith('__') && !roots.includes(type) && !type.getFields().id)
      .map((type) => type.name);
    expect([...valueObjectTypes].sort()).toEqual(withoutId.sort());
  });

  it('is the module docs/graphql.md shows, word for word', () => {
    const docs = readFileSync(new URL('../../../docs/graphql.md', import.meta.url), 'utf8');
    expect(docs).toContain(readFileSync(new URL('../../../examples/clients/apollo/src/cache.ts', import.meta.url), 'utf8'));
  });
});

describe('the warning trap', () => {
  it('catches the warning a cache without the type policies prints', async () => {
    const bare = new ApolloClient({
      cache: new InMemoryCache(),
      link: new HttpLink({ uri: `${baseUrl}/graphql`, headers: { authorization: `Bearer ${publishableKey}`, origin } }),
    });
    const variables = { brandId, id: demoIds.experiences.tram28PhotoWalk };
    await bare.query({ query: ExperienceQuery, variables });
    await bare.query({ query: ExperienceMapQuery, variables });
    expect(warnings.take()).toEqual([
      expect.stringContaining('Cache data may be lost when replacing the location field of a Experience object.'),
      expect.stringContaining('Cache data may be lost when replacing the ratings field of a Experience object.'),
    ]);
  });
});

/** Lisbon's featured listings as guests see them, in order; the Portuguese page, and the drafts. */
const published = [
  'Sunset Sail on the Tagus',
  'Tram 28 Photo Walk',
  'Alfama Fado Night',
  'Pastel de Nata Workshop',
  'Sintra Day Trip',
  'Santos Populares: Saint Anthony’s Night in Alfama',
];
const portuguese = published.map(
  (title) =>
    ({ 'Tram 28 Photo Walk': 'Passeio fotográfico no elétrico 28', 'Alfama Fado Night': 'Noite de fado em Alfama' })[title] ?? title,
);
const latest = published.map((title) => (title === 'Sintra Day Trip' ? 'Sintra and Cascais Day Trip' : title));

describe('one cache across languages and content versions', () => {
  it('shows the featured listings and an experience in the locale, language and version each query asked for, every time', async () => {
    const client = storefront();
    sent.length = 0;
    type ListingVariables = { locale?: string; contentVersion?: 'LATEST' | 'PUBLISHED' };
    // Drafts are for secret keys (docs/keys.md): LATEST is asked with one, as a preview on the brand's server would, through the same cache.
    const keyFor = (variables: ListingVariables) => (variables.contentVersion === 'LATEST' ? { context: withSecretKey(secretKey) } : {});
    const featured = async (variables: ListingVariables) =>
      (await client.query({ query: FeaturedListingsQuery, variables, ...keyFor(variables) })).data?.featuredListings?.map(
        (listing) => listing.title,
      );
    const experienceVariables = (language: string) => ({ brandId, id: demoIds.experiences.tram28PhotoWalk, language });
    const experience = async (language: string) => {
      const shown = (await client.query({ query: ExperienceQuery, variables: experienceVariables(language) })).data?.experience;
      return [shown?.title, shown?.headline, shown?.contentLanguage];
    };
    const english = ['Tram 28 Photo Walk', 'Photograph Lisbon from and around its most famous tram line', 'en'];
    const inPortuguese = ['Passeio fotográfico no elétrico 28', 'Fotografe Lisboa a partir da sua linha de elétrico mais famosa', 'pt'];

    expect(await featured({ locale: 'en' })).toEqual(published);
    expect(await featured({ locale: 'pt' })).toEqual(portuguese);
    // Answered from the cache (cache-first): the Portuguese answer must not have overwritten the English one.
    expect(await featured({ locale: 'en' })).toEqual(published);
    expect(await featured({ contentVersion: 'LATEST' })).toEqual(latest);
    expect(await featured({ contentVersion: 'PUBLISHED' })).toEqual(published);
    expect(await featured({ contentVersion: 'LATEST' })).toEqual(latest);
    expect(await experience('en')).toEqual(english);
    expect(await experience('pt')).toEqual(inPortuguese);
    expect(await experience('en')).toEqual(english);
    expect(await featured({ locale: 'pt' })).toEqual(portuguese);
    expect(await experience('pt')).toEqual(inPortuguese);
    expect(sent).toEqual([
      'POST ApolloFeaturedListings',
      'POST ApolloFeaturedListings',
      'POST ApolloFeaturedListings',
      'POST ApolloFeaturedListings',
      'POST ApolloExperience',
      'POST ApolloExperience',
    ]);

    // Everything still in the cache, each answer as the server gave it.
    const cachedTitles = (variables: ListingVariables) =>
      client.readQuery({ query: FeaturedListingsQuery, variables })?.featuredListings?.map((listing) => listing.title);
    expect(cachedTitles({ locale: 'en' })).toEqual(published);
    expect(cachedTitles({ locale: 'pt' })).toEqual(portuguese);
    expect(cachedTitles({ contentVersion: 'LATEST' })).toEqual(latest);
    expect(cachedTitles({ contentVersion: 'PUBLISHED' })).toEqual(published);
    expect(client.readQuery({ query: ExperienceQuery, variables: experienceVariables('en') })?.experience?.title).toBe(english[0]);
    expect(client.readQuery({ query: ExperienceQuery, variables: experienceVariables('pt') })?.experience?.title).toBe(inPortuguese[0]);
  });
});

/** Pays as the guest would at the sandbox processor (its REST confirm call plays the card form; see test/browser). */
async function paySandbox(paymentIntentSecret: string): Promise<unknown> {
  const response = await fetch(`${baseUrl}/v1/sandbox/payment_intents/confirm`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ paymentIntentSecret, outcome: 'succeeded' }),
  });
  return ((await response.json()) as { paymentIntentStatus?: string }).paymentIntentStatus;
}

describe('a purchase, read back from the cache between steps', () => {
  it('finds, holds, pays, reads and cancels, and the cached availability follows without a refetch', async () => {
    const client = storefront();
    sent.length = 0;
    const listings = (await client.query({ query: FeaturedListingsQuery, variables: {} })).data?.featuredListings ?? [];
    const experienceId = listings.find((listing) => listing.title === 'Tram 28 Photo Walk')?.experienceId;
    expect(experienceId).toBe(demoIds.experiences.tram28PhotoWalk);

    const experienceVariables = { brandId, id: experienceId! };
    const { data: shown } = await client.query({ query: ExperienceQuery, variables: experienceVariables });
    expect(shown?.experience).toMatchObject({
      title: 'Tram 28 Photo Walk',
      currency: 'EUR',
      priceTiers: [{ name: 'Adult', price: 45 }, {}, {}],
    });
    // The map's other fields of the same location and ratings add to the cached ones (no warning).
    await client.query({ query: ExperienceMapQuery, variables: experienceVariables });
    const cached = client.readQuery({ query: ExperienceQuery, variables: experienceVariables })?.experience;
    expect(cached?.location).toEqual({
      __typename: 'ExperienceLocation',
      name: 'Praça Martim Moniz, tram 28 stop',
      timezoneId: 'Europe/Lisbon',
    });
    expect(cached?.ratings).toEqual({ __typename: 'Ratings', rating: 4.4, total: 60 });

    const availabilityVariables = { brandId, experienceId: experienceId!, from: '2026-11-28', to: '2026-11-28' };
    const remaining = () =>
      client
        .readQuery({ query: AvailabilityQuery, variables: availabilityVariables })
        ?.availability?.map((s) => [s.startDateTime, s.remaining]);
    await client.query({ query: AvailabilityQuery, variables: availabilityVariables });
    // The publishable key sees what it can hold unpaid: the brand's 50 % share of each 8-place session.
    expect(remaining()).toEqual([
      ['2026-11-28T09:30:00', 4],
      ['2026-11-28T15:00:00', 4],
    ]);

    const guest = (firstName: string) => ({
      firstName,
      lastName: 'Silva',
      priceTierName: 'Adult',
      emailAddress: `${firstName.toLowerCase()}@example.com`,
    });
    const { data: held } = await client.mutate({
      mutation: HoldMutation,
      variables: {
        brandId,
        cartId: randomUUID(),
        input: { data: [{ experienceId: experienceId!, sessionTime: '2026-11-28T09:30:00', participants: [guest('Ana'), guest('Rui')] }] },
      },
    });
    // 2 x 45.00, plus 23 % IVA: 110.70.
    expect(held?.createPaymentIntent).toMatchObject({
      totalNetAmount: 110.7,
      cart: { status: 'OPEN', bookings: [{ status: 'PROCESSING', amount: 110.7 }] },
    });
    expect(remaining()).toEqual([
      ['2026-11-28T09:30:00', 2],
      ['2026-11-28T15:00:00', 4],
    ]);

    expect(await paySandbox(held!.createPaymentIntent.paymentIntentSecret!)).toBe('succeeded');
    const bookingId = held!.createPaymentIntent.cart!.bookings[0]!.uuid;
    const { data: paid } = await client.query({ query: BookingQuery, variables: { id: bookingId }, context: withSecretKey(secretKey) });
    expect(paid?.booking).toMatchObject({ status: 'CONFIRMED', amount: 110.7, amountRefunded: 0 });
    expect(paid?.booking?.confirmationCode).toMatch(/^[A-Z0-9]{8}$/);

    const { data: cancelled } = await client.mutate({
      mutation: CancelMutation,
      variables: { input: { bookings: [{ bookingId, cancel: true, refundAmount: 110.7 }] } },
      context: withSecretKey(secretKey),
    });
    expect(cancelled?.cancelBookings).toMatchObject({ items: [{ status: 'REFUNDED', amountRefunded: 110.7 }], errors: [] });
    expect(client.readQuery({ query: BookingQuery, variables: { id: bookingId } })?.booking).toMatchObject({
      status: 'REFUNDED',
      amountRefunded: 110.7,
    });
    // The cancellation was answered to the secret key, which sees every place on sale: this one cache serves
    // both keys, so it shows the view it was given last (docs/keys.md, publishable keys; a shop's page uses one key).
    expect(remaining()).toEqual([
      ['2026-11-28T09:30:00', 8],
      ['2026-11-28T15:00:00', 4],
    ]);
    // Availability was read once: the hold and the cancellation brought the session's places with them.
    expect(sent).toEqual([
      'POST ApolloFeaturedListings',
      'POST ApolloExperience',
      'POST ApolloExperienceMap',
      'POST ApolloAvailability',
      'POST ApolloHold',
      'POST ApolloBooking',
      'POST ApolloCancel',
    ]);
  });
});
