import { beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp } from '../../support/app.ts';
import { freshDb } from '../../support/db.ts';
import { createApiKey, createBrand } from '../../../fixtures/factories/brands.ts';
import { connected, listen, subscribe, wsClient, type Listening } from '../../support/live.ts';

const db = await freshDb();
const brand = await createBrand(db);
const budgeted = (await createApiKey(db, { brandId: brand.id })).secret;
const crowded = (await createApiKey(db, { brandId: brand.id })).secret;

let t: TestApp;
let at: Listening;
beforeAll(async () => {
  t = await startApp(db, { http: { RATE_LIMIT_PER_MINUTE: 4 }, live: { LIVE_MAX_CONNECTIONS_PER_KEY: 2 } });
  at = await listen(t.app);
});

const refusedDocument = 'subscription { nothing }';

describe('live limits', () => {
  it("spends the key's request budget on the connection and on each subscription, then refuses with RATE_LIMITED", async () => {
    const client = wsClient(at.ws, { key: budgeted, lazy: false });
    // The connection spends one request of 4, each subscription one more.
    const answers = [];
    for (let i = 0; i < 4; i++) answers.push(await subscribe(client, refusedDocument).end());
    expect(answers.slice(0, 3).map((a) => (a.error as { extensions: unknown }[])[0]?.extensions)).toEqual([
      { code: 'GRAPHQL_VALIDATION_FAILED' },
      { code: 'GRAPHQL_VALIDATION_FAILED' },
      { code: 'GRAPHQL_VALIDATION_FAILED' },
    ]);
    expect(answers[3]!.error).toEqual([
      {
        message: expect.stringMatching(/^Rate limit exceeded: 4 requests per minute for this API key; retry in \d+ s$/),
        extensions: { code: 'RATE_LIMITED' },
      },
    ]);
  });

  it('closes a connection beyond LIVE_MAX_CONNECTIONS_PER_KEY with 4429, and takes one again once another closed', async () => {
    const first = wsClient(at.ws, { key: crowded, lazy: false });
    const second = wsClient(at.ws, { key: crowded, lazy: false });
    await Promise.all([connected(first), connected(second)]);
    const third = wsClient(at.ws, { key: crowded, lazy: false });
    await expect(connected(third)).rejects.toMatchObject({ code: 4429 });
    expect(third.closed).toEqual([{ code: 4429, reason: 'This API key already has 2 live connections open on this gateway.' }]);
    const open = t.app.liveConnections.size;
    await first.dispose();
    const deadline = Date.now() + 5_000;
    while (t.app.liveConnections.size === open) {
      if (Date.now() > deadline) throw new Error('the gateway did not see the connection close');
      await new Promise((resolve) => setImmediate(resolve));
    }
    const fourth = wsClient(at.ws, { key: crowded, lazy: false });
    await expect(connected(fourth)).resolves.toBeUndefined();
  });
});
