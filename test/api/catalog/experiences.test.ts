import { beforeAll, describe, expect, it } from 'vitest';
import { freshDb } from '../../support/db.ts';
import { startApp, type TestApp } from '../../support/app.ts';
import { createApiKey, createBrand, createCancellationPolicy, createOrganization } from '../../../fixtures/factories/brands.ts';
import { createExperience } from '../../../fixtures/factories/catalog.ts';
import { createReviews } from '../../../fixtures/factories/reviews.ts';

const db = await freshDb();
let t: TestApp;
const org = await createOrganization(db);
const brand = await createBrand(db, { name: 'Coast Lisbon', organizationId: org.id, currency: 'EUR', language: 'en' });
const sister = await createBrand(db, { name: 'Coast Tokyo', organizationId: org.id, currency: 'JPY', language: 'ja' });
const outsider = await createBrand(db, { name: 'Elsewhere' });
const policy = await createCancellationPolicy(db, brand.id);
const brandKey = (await createApiKey(db, { brandId: brand.id })).secret;
const orgKey = (await createApiKey(db, { organizationId: org.id })).secret;

const full = await createExperience(
  db,
  brand.id,
  {
    externalFieldType: 'sku',
    externalFieldValue: 'SAIL-01',
    minimumRequiredToBook: 2,
    maximumAllowedToBook: 6,
    displayedCapacity: 10,
    cancellationPolicyId: policy.id,
  },
  {
    vibes: ['Relaxing', 'Romantic'],
    translations: [
      {
        locale: 'pt',
        title: 'Vela ao Pôr do Sol',
        headline: 'O rio ao anoitecer',
        description: 'Duas horas no Tejo.',
        healthAndSafety: 'Coletes fornecidos.',
      },
      {
        locale: 'pt-BR',
        title: 'Velejada ao Pôr do Sol',
        headline: 'O rio no fim da tarde',
        description: 'Duas horas no Tejo!',
        healthAndSafety: 'Coletes inclusos.',
      },
    ],
  },
);
await createReviews(db, { brandId: brand.id, experienceId: full.experience.id, hostId: full.host.id }, [
  { rating: 5, recommendability: 9 },
  { rating: 4, recommendability: 8 },
  { rating: 4, recommendability: 10 },
]);
// Only half of the external field: not enough to show one.
const bare = await createExperience(
  db,
  brand.id,
  { isUnlisted: true, externalFieldType: 'sku' },
  { pictures: 0, taxes: [], priceTiers: [{ name: 'Adult', priceMinor: 5 }] },
);
const yen = await createExperience(
  db,
  sister.id,
  { bookingAvailabilityMode: 'non-restricted' },
  {
    priceTiers: [{ name: 'Adult', priceMinor: 4500 }],
    taxes: [
      { name: 'Consumption tax', rateBasisPoints: 1000 },
      { name: 'City tax', rateBasisPoints: 650 },
    ],
  },
);
const stranger = await createExperience(db, outsider.id);

beforeAll(async () => {
  t = await startApp(db);
});

const url = (brandId: string, experienceId: string, query = '') => `/v1/brands/${brandId}/experiences/${experienceId}${query}`;
const picture = (id: string) => ({
  id,
  uri: { original: `https://cdn.example.test/${id}.jpg`, '480w': `https://cdn.example.test/${id}-480.webp` },
});
const optionalKeys = [
  'ratings',
  'externalField',
  'minimumRequiredToBook',
  'maximumAllowedToBook',
  'displayedCapacity',
  'cancellationPolicyId',
];

describe('GET /v1/brands/{brandId}/experiences/{experienceId}', () => {
  it('returns every field of the spec with exact values', async () => {
    const res = await t.rest('GET', url(brand.id, full.experience.id), { key: brandKey });
    expect(res.status).toBe(200);
    const host = full.host;
    const [p1, p2] = full.pictures.map((p) => picture(p.id));
    expect(res.body).toEqual({
      id: full.experience.id,
      title: 'Sunset Sail',
      slug: full.experience.slug,
      headline: 'The river at dusk',
      description: 'Two hours on the Tagus.',
      vibes: full.vibes.map((v) => ({ id: v.id, name: v.name })),
      category: { id: full.category.id, name: 'Boat Tours' },
      location: { longitude: -9.1393, latitude: 38.7223, name: 'Doca de Alcântara', timezoneId: 'Europe/Lisbon', additionalInfo: 'Pier 3' },
      maxParticipantsCount: 12,
      sessionDurationMinutes: 120,
      currency: 'EUR',
      coverPicture: picture(full.cover.id),
      pictures: [p1, p2],
      medias: [picture(full.cover.id), p1, p2],
      bookingAvailabilityMode: 'group',
      providedItems: ['Life jacket', 'Drinks'],
      healthAndSafety: 'Life jackets provided.',
      isExclusive: false,
      isBookable: true,
      isUnlisted: false,
      type: 'experience',
      hostedBy: {
        id: host.id,
        profilePicture: host.profilePicture,
        firstName: 'Rui',
        lastName: 'Costa',
        emailAddress: host.emailAddress,
        description: 'Skipper for twenty years',
        allowOverlappingBookings: false,
      },
      // Stored with room-charge too, which the brand does not enable (roomMemberCharge): only what checkout accepts is shown.
      paymentMethods: ['credit-card'],
      priceTiers: [
        { name: 'Adult', price: 45.5 },
        { name: 'Child', price: 20 },
      ],
      taxes: [{ name: 'VAT', amount: 23 }],
      integrationMeta: [{ type: 'analytics', key: 'ga', value: { trackingId: 'G-1', enabled: true } }],
      ratings: { rating: 4.3, recommendability: 9, total: 3 },
      externalField: { type: 'sku', value: 'SAIL-01' },
      minimumRequiredToBook: 2,
      maximumAllowedToBook: 6,
      displayedCapacity: 10,
      cancellationPolicyId: policy.id,
      addOns: [],
      customQuestions: [],
      status: 'active',
    });
    expect(res.body.vibes.map((v: { name: string }) => v.name)).toEqual(['Relaxing', 'Romantic']);
  });

  it('omits optional fields without a value, and still reads an unlisted experience by id', async () => {
    const res = await t.rest('GET', url(brand.id, bare.experience.id), { key: brandKey });
    expect(res.status).toBe(200);
    for (const key of optionalKeys) expect(res.body).not.toHaveProperty(key);
    expect(res.body.isUnlisted).toBe(true);
    expect(res.body.pictures).toEqual([]);
    expect(res.body.medias).toEqual([picture(bare.cover.id)]);
    expect(res.body.vibes).toEqual([]);
    expect(res.body.taxes).toEqual([]);
    expect(res.body.priceTiers).toEqual([{ name: 'Adult', price: 0.05 }]);
  });

  it('shows JPY prices without decimals and tax rates as percentages', async () => {
    const res = await t.rest('GET', url(sister.id, yen.experience.id), { key: orgKey });
    expect(res.status).toBe(200);
    expect(res.body.currency).toBe('JPY');
    expect(res.body.priceTiers).toEqual([{ name: 'Adult', price: 4500 }]);
    expect(res.body.taxes).toEqual([
      { name: 'Consumption tax', amount: 10 },
      { name: 'City tax', amount: 6.5 },
    ]);
    expect(res.body.bookingAvailabilityMode).toBe('non-restricted');
  });

  it('translates the texts: exact tag, then language, else the base text', async () => {
    const texts = async (language: string) => {
      const { body } = await t.rest('GET', url(brand.id, full.experience.id, `?language=${language}`), { key: brandKey });
      return [body.title, body.headline, body.description, body.healthAndSafety, body.slug];
    };
    expect(await texts('pt-BR')).toEqual([
      'Velejada ao Pôr do Sol',
      'O rio no fim da tarde',
      'Duas horas no Tejo!',
      'Coletes inclusos.',
      full.experience.slug,
    ]);
    expect(await texts('pt-PT')).toEqual([
      'Vela ao Pôr do Sol',
      'O rio ao anoitecer',
      'Duas horas no Tejo.',
      'Coletes fornecidos.',
      full.experience.slug,
    ]);
    expect(await texts('de')).toEqual([
      'Sunset Sail',
      'The river at dusk',
      'Two hours on the Tagus.',
      'Life jackets provided.',
      full.experience.slug,
    ]);
  });

  it('answers 404 for an unknown id and for another brand’s experience under a brand the key may act for', async () => {
    const unknown = await t.rest('GET', url(brand.id, '00000000-0000-4000-8000-000000000000'), { key: brandKey });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.code).toBe('NOT_FOUND');
    expect((await t.rest('GET', url(brand.id, yen.experience.id), { key: orgKey })).status).toBe(404);
    expect((await t.rest('GET', url(brand.id, stranger.experience.id), { key: brandKey })).status).toBe(404);
  });

  it('answers 403 for a brand outside the key scope and 401 without a key', async () => {
    const forbidden = await t.rest('GET', url(outsider.id, stranger.experience.id), { key: orgKey });
    expect(forbidden.status).toBe(403);
    expect(forbidden.body.error.code).toBe('FORBIDDEN');
    expect((await t.rest('GET', url(sister.id, yen.experience.id), { key: brandKey })).status).toBe(403);
    const anonymous = await t.rest('GET', url(brand.id, full.experience.id));
    expect(anonymous.status).toBe(401);
    expect(anonymous.body.error.code).toBe('UNAUTHENTICATED');
  });

  it.each([
    ['brandId', url('nope', full.experience.id)],
    ['experienceId', url(brand.id, 'nope')],
    ['language', url(brand.id, full.experience.id, '?language=en_US')],
  ])('rejects a malformed %s with 400 naming it', async (field, path) => {
    const res = await t.rest('GET', path, { key: brandKey });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'VALIDATION_FAILED', details: { field } });
  });
});

// Raw ids (`uuid`, `key`) under REST's name, so the two faces compare field for field.
const query = `query($brandId: UUID!, $id: UUID!, $language: Locale) {
  experience(brandId: $brandId, id: $id, language: $language) {
    id: uuid title slug headline description vibes { id: key name } category { id: key name }
    location { longitude latitude name timezoneId additionalInfo }
    maxParticipantsCount sessionDurationMinutes currency
    coverPicture { id: key uri } pictures { id: key uri } medias { id: key uri }
    bookingAvailabilityMode providedItems healthAndSafety isExclusive isBookable isUnlisted type
    hostedBy { id: uuid profilePicture { id: key uri } firstName lastName emailAddress description allowOverlappingBookings }
    paymentMethods priceTiers { name price } taxes { name amount } integrationMeta { type key value }
    ratings { rating recommendability total } externalField { type value }
    minimumRequiredToBook maximumAllowedToBook displayedCapacity cancellationPolicyId status
  }
}`;

/** The REST body as GraphQL shows it: enum names, and null for the omitted optional fields. */
function asGraphQL({ customQuestions: _asked, addOns: _addOns, ...rest }: Record<string, unknown>) {
  return {
    ...Object.fromEntries(optionalKeys.map((k) => [k, null])),
    ...rest,
    bookingAvailabilityMode: String(rest.bookingAvailabilityMode).toUpperCase().replace('-', '_'),
    paymentMethods: (rest.paymentMethods as string[]).map((m) => m.toUpperCase().replace('-', '_')),
    status: String(rest.status).toUpperCase(),
  };
}

describe('GraphQL experience', () => {
  it.each([
    ['a full experience', () => [brand.id, full.experience.id, 'pt']],
    ['an experience without optional fields', () => [brand.id, bare.experience.id, null]],
    ['a JPY experience', () => [sister.id, yen.experience.id, null]],
  ])('agrees with REST for %s', async (_, args) => {
    const [brandId, id, language] = args() as [string, string, string | null];
    const [gql, rest] = await Promise.all([
      t.gql(query, { brandId, id, language }, { key: orgKey }),
      t.rest('GET', url(brandId, id, language ? `?language=${language}` : ''), { key: orgKey }),
    ]);
    expect(gql.body.errors).toBeUndefined();
    expect(gql.body.data.experience).toEqual(asGraphQL(rest.body));
  });

  it('shows enum names and translated text', async () => {
    const res = await t.gql(query, { brandId: brand.id, id: full.experience.id, language: 'pt' }, { key: brandKey });
    const experience = res.body.data.experience;
    expect(experience.title).toBe('Vela ao Pôr do Sol');
    expect(experience.bookingAvailabilityMode).toBe('GROUP');
    expect(experience.paymentMethods).toEqual(['CREDIT_CARD']);
  });

  it('is null for an unknown id and for another brand’s experience', async () => {
    for (const id of ['00000000-0000-4000-8000-000000000000', yen.experience.id]) {
      const res = await t.gql(query, { brandId: brand.id, id }, { key: orgKey });
      expect(res.body.errors).toBeUndefined();
      expect(res.body.data.experience).toBeNull();
    }
  });

  it('gives FORBIDDEN, UNAUTHENTICATED and BAD_USER_INPUT codes', async () => {
    const forbidden = await t.gql(query, { brandId: outsider.id, id: stranger.experience.id }, { key: brandKey });
    expect(forbidden.body.errors[0].extensions.code).toBe('FORBIDDEN');
    const anonymous = await t.gql(query, { brandId: brand.id, id: full.experience.id });
    expect(anonymous.body.errors[0].extensions.code).toBe('UNAUTHENTICATED');
    for (const variables of [{ id: 'nope' }, { language: 'not a language!' }]) {
      const res = await t.gql(query, { brandId: brand.id, id: full.experience.id, ...variables }, { key: brandKey });
      expect(res.body.errors[0].extensions.code).toBe('BAD_USER_INPUT');
    }
  });
});
