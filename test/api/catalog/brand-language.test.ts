/**
 * The brand's language: without a locale, answers are in the brand's default locale (its translation
 * where the content has one, else the language the content is written in), and `Content-Language` (REST)
 * or `contentLanguage` (GraphQL) says which. Demo data: Harbor Tokyo writes in English and answers in
 * Japanese by default; Harbor Lisbon writes and answers in English.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { demoIds } from '../../../src/db/demo/ids.ts';
import { seedDemoDataIfEmpty } from '../../../src/db/demo/index.ts';
import { startApp, type TestApp } from '../../support/app.ts';
import { freshDb } from '../../support/db.ts';

const db = await freshDb();
await seedDemoDataIfEmpty(db);
let t: TestApp;
beforeAll(async () => {
  t = await startApp(db);
});

const TOKYO = 'sk_test_tokyo_demo';
const LISBON = 'sk_test_lisbon_demo';
const titles = (body: { data: Array<{ id: string; title: string }> }) => Object.fromEntries(body.data.map((l) => [l.id, l.title]));
const { listings, experiences, brands } = demoIds;

describe("the brand's default locale", () => {
  it("answers Tokyo's featured listings in Japanese where translated, saying so in Content-Language", async () => {
    const byDefault = await t.rest('GET', '/v3/listings/featured', { key: TOKYO });
    expect(titles(byDefault.body)).toMatchObject({
      [listings.tsukijiBreakfastWalk]: '築地 朝ごはん散歩',
      [listings.asakusaTeaCeremony]: '浅草の茶道体験',
    });
    expect(byDefault.headers['content-language']).toBe(
      [
        ...new Set(
          byDefault.body.data.map((l: { id: string }) =>
            l.id === listings.tsukijiBreakfastWalk || l.id === listings.asakusaTeaCeremony ? 'ja' : 'en',
          ),
        ),
      ].join(', '),
    );
    const english = await t.rest('GET', '/v3/listings/featured?locale=en', { key: TOKYO });
    expect(titles(english.body)[listings.tsukijiBreakfastWalk]).not.toBe('築地 朝ごはん散歩');
    expect(english.headers['content-language']).toBe('en');
    const gql = await t.gql('{ featuredListings { uuid title contentLanguage } }', {}, { key: TOKYO });
    const tsukiji = gql.body.data.featuredListings.find((l: { uuid: string }) => l.uuid === listings.tsukijiBreakfastWalk);
    expect(tsukiji).toEqual({ uuid: listings.tsukijiBreakfastWalk, title: '築地 朝ごはん散歩', contentLanguage: 'ja' });
  });

  it('answers an experience in the default locale unless another is asked, on both faces', async () => {
    const url = `/v1/brands/${brands.tokyo}/experiences/${experiences.asakusaTeaCeremony}`;
    const byDefault = await t.rest('GET', url, { key: TOKYO });
    const english = await t.rest('GET', `${url}?language=en`, { key: TOKYO });
    expect([byDefault.headers['content-language'], english.headers['content-language']]).toEqual(['ja', 'en']);
    expect(byDefault.body.title).not.toBe(english.body.title);
    const query = `query($language: Locale) { experience(brandId: "${brands.tokyo}", id: "${experiences.asakusaTeaCeremony}", language: $language) { title contentLanguage } }`;
    expect((await t.gql(query, {}, { key: TOKYO })).body.data.experience).toEqual({ title: byDefault.body.title, contentLanguage: 'ja' });
    expect((await t.gql(query, { language: 'en' }, { key: TOKYO })).body.data.experience).toEqual({
      title: english.body.title,
      contentLanguage: 'en',
    });
  });

  it('keeps Lisbon in English by default, and says so on a cached answer too', async () => {
    for (let i = 0; i < 2; i++) {
      const res = await t.rest('GET', '/v3/listings/featured', { key: LISBON });
      expect([res.status, res.headers['content-language']]).toEqual([200, 'en']);
    }
  });
});
