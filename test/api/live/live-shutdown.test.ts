import { beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp } from '../../support/app.ts';
import { freshDb } from '../../support/db.ts';
import { createApiKey, createBrand } from '../../../fixtures/factories/brands.ts';
import { connected, listen, sseClient, subscribe, subscriptionsRunning, wsClient, type Listening } from '../../support/live.ts';
import { createExperience } from '../../../fixtures/factories/catalog.ts';

const db = await freshDb();
const brand = await createBrand(db);
const secret = (await createApiKey(db, { brandId: brand.id })).secret;
const { experience } = await createExperience(db, brand.id);

let t: TestApp;
let at: Listening;
beforeAll(async () => {
  t = await startApp(db);
  at = await listen(t.app);
});

describe('shutdown', () => {
  it('closes every WebSocket with 1012 Service Restart and ends every event stream, so clients reconnect to another gateway', async () => {
    const clients = [wsClient(at.ws, { key: secret, lazy: false }), wsClient(at.ws, { key: secret, lazy: false })];
    await Promise.all(clients.map(connected));
    const stream = subscribe(
      sseClient(at.http, { key: secret }),
      'subscription($b: UUID!, $e: UUID!) { sessionAvailability(brandId: $b, experienceId: $e, from: "2026-12-01", to: "2026-12-02") { remaining } }',
      {
        b: brand.id,
        e: experience.id,
      },
    );
    await subscriptionsRunning(t.app, 1);
    const started = Date.now();
    await t.app.close();
    // Closed by the gateway, not left to the keep-alive or to the process's exit.
    expect(Date.now() - started).toBeLessThan(2_000);
    for (const client of clients) expect(client.closed).toEqual([{ code: 1012, reason: 'The gateway is restarting: reconnect.' }]);
    // The event stream is ended too: its client sees the connection close and may reconnect elsewhere.
    expect(String((await stream.end()).error)).toBe('NetworkError: Connection closed while having active streams');
  });
});
