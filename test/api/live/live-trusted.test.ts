import { createHash } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp } from '../../support/app.ts';
import { freshDb } from '../../support/db.ts';
import { createApiKey, createBrand } from '../../../fixtures/factories/brands.ts';
import { createExperience } from '../../../fixtures/factories/catalog.ts';
import { listen, subscribe, subscriptionsRunning, wsClient, type Listening } from '../../support/live.ts';

const db = await freshDb();
const brand = await createBrand(db);
const secret = (await createApiKey(db, { brandId: brand.id })).secret;
const { experience } = await createExperience(db, brand.id);

const trusted =
  'subscription Places($b: UUID!, $e: UUID!) { sessionAvailability(brandId: $b, experienceId: $e, from: "2026-12-01", to: "2026-12-02") { remaining } }';
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
const manifestFile = join(mkdtempSync(join(tmpdir(), 'tessera-live-trusted-')), 'manifest.json');
writeFileSync(
  manifestFile,
  JSON.stringify({
    format: 'apollo-persisted-query-manifest',
    version: 1,
    operations: [{ id: sha256(trusted), name: 'Places', type: 'subscription', body: trusted }],
  }),
);

let t: TestApp;
let at: Listening;
beforeAll(async () => {
  t = await startApp(db, { graphql: { trustedDocumentsFile: manifestFile } });
  at = await listen(t.app);
});

describe('trusted documents mode over a live connection', () => {
  it('runs a subscription of the manifest, sent as its text or as its hash alone', async () => {
    const client = wsClient(at.ws, { key: secret });
    subscribe(client, trusted, { b: brand.id, e: experience.id });
    await subscriptionsRunning(t.app, 1);
    // graphql-ws requires a query string: an empty one with Apollo's persisted-query extension is the hash alone.
    client.subscribe(
      {
        query: '',
        variables: { b: brand.id, e: experience.id },
        extensions: { persistedQuery: { version: 1, sha256Hash: sha256(trusted) } },
      },
      { next: () => {}, error: () => {}, complete: () => {} },
    );
    await subscriptionsRunning(t.app, 2);
  });

  it('refuses any other document with PERSISTED_QUERY_NOT_TRUSTED before reading it', async () => {
    const other =
      'subscription { sessionAvailability(brandId: "x", experienceId: "y", from: "2026-12-01", to: "2026-12-02") { remaining } }';
    const ended = await subscribe(wsClient(at.ws, { key: secret }), other).end();
    expect(ended.error).toEqual([
      {
        message: 'This server runs only the operations of its trusted documents manifest.',
        extensions: { code: 'PERSISTED_QUERY_NOT_TRUSTED' },
      },
    ]);
  });
});
