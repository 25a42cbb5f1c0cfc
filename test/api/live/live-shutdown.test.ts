import { beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp } from '../../support/app.ts';
import { freshDb } from '../../support/db.ts';
import { createApiKey, createBrand } from '../../../fixtures/factories/brands.ts';
import { connected, listen, wsClient, type Listening } from '../../support/live.ts';

const db = await freshDb();
const brand = await createBrand(db);
const secret = (await createApiKey(db, { brandId: brand.id })).secret;

let t: TestApp;
let at: Listening;
beforeAll(async () => {
  t = await startApp(db);
  at = await listen(t.app);
});

describe('shutdown', () => {
  it('closes every live connection with 1012 Service Restart, so clients reconnect to another gateway', async () => {
    const clients = [wsClient(at.ws, { key: secret, lazy: false }), wsClient(at.ws, { key: secret, lazy: false })];
    await Promise.all(clients.map(connected));
    const started = Date.now();
    await t.app.close();
    // Closed by the gateway, not left to the keep-alive or to the process's exit.
    expect(Date.now() - started).toBeLessThan(2_000);
    for (const client of clients) expect(client.closed).toEqual([{ code: 1012, reason: 'The gateway is restarting: reconnect.' }]);
  });
});
