/** Who may read /metrics, /readyz against a working, a closed and an unmigrated database, and neither in OpenAPI. */
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config.ts';
import { startApp } from '../../support/app.ts';
import { freshDb } from '../../support/db.ts';
import { sample } from '../../support/metrics.ts';

const TOKEN = 'metrics-token-0123456789abcdef';
const metrics = (t: Awaited<ReturnType<typeof startApp>>, authorization?: string) =>
  t.app.inject({ method: 'GET', url: '/metrics', headers: authorization ? { authorization } : {} });

describe('/metrics access', () => {
  it('is open outside production when no METRICS_TOKEN is set, and needs no API key', async () => {
    const t = await startApp(await freshDb());
    const res = await metrics(t);
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('http_requests_total');
  });

  it('does not exist in production without METRICS_TOKEN: the same 404 as an unknown route', async () => {
    const t = await startApp(await freshDb(), { production: true });
    const res = await metrics(t, `Bearer ${TOKEN}`);
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({
      error: { code: 'NOT_FOUND', message: 'No route for GET /metrics', requestId: res.headers['x-request-id'] },
    });
  });

  it('with METRICS_TOKEN, answers only the bearer of that token (401 with WWW-Authenticate otherwise), in production or not', async () => {
    for (const production of [true, false]) {
      const t = await startApp(await freshDb(), { production, metricsToken: TOKEN });
      for (const wrong of [undefined, 'Bearer', `Bearer ${TOKEN}x`, `Bearer ${TOKEN.slice(0, -1)}`, `Basic ${TOKEN}`, TOKEN]) {
        const res = await metrics(t, wrong);
        expect(res.statusCode).toBe(401);
        expect(res.headers['www-authenticate']).toBe('Bearer realm="metrics"');
        expect(res.json().error.code).toBe('UNAUTHENTICATED');
        expect(res.body).not.toContain(TOKEN);
      }
      const ok = await metrics(t, `Bearer ${TOKEN}`);
      expect(ok.statusCode).toBe(200);
      expect(sample(ok.body, 'errors_total', { api: 'rest', code: 'UNAUTHENTICATED' })).toBe(6);
    }
  });

  it('reads METRICS_TOKEN from the environment: 16 to 256 characters, never echoed in a config error', () => {
    expect(loadConfig({ METRICS_TOKEN: TOKEN }).METRICS_TOKEN).toBe(TOKEN);
    expect(loadConfig({}).METRICS_TOKEN).toBeUndefined();
    expect(() => loadConfig({ METRICS_TOKEN: 'short-secret' })).toThrow(
      /METRICS_TOKEN: must be 16 to 256 characters without spaces \(openssl rand -hex 32\) \(got <redacted>\)/,
    );
  });

  it('leaves /metrics, /readyz and /healthz out of the OpenAPI document', async () => {
    const t = await startApp(await freshDb());
    const paths = Object.keys((await t.rest('GET', '/openapi.json')).body.paths);
    expect(paths.filter((p) => ['/metrics', '/readyz', '/healthz'].includes(p))).toEqual([]);
    expect(paths.length).toBeGreaterThan(10);
  });
});

describe('/readyz', () => {
  it('is 200 ready while the database answers and carries every migration', async () => {
    const t = await startApp(await freshDb());
    const res = await t.rest('GET', '/readyz');
    expect(res).toMatchObject({ status: 200, body: { status: 'ready' } });
  });

  it('is 503 when the database is closed, naming no internals, while /healthz (liveness) stays 200', async () => {
    const db = await freshDb();
    const lines: Array<Record<string, any>> = [];
    const t = await startApp(db, { logStream: { write: (line) => lines.push(JSON.parse(line)) } });
    await db.database.close();
    const res = await t.rest('GET', '/readyz');
    expect(res).toMatchObject({ status: 503, body: { status: 'unavailable', reason: 'database unavailable' } });
    expect(Object.keys(res.body)).toEqual(['status', 'reason']);
    expect((await t.rest('GET', '/healthz')).status).toBe(200);
    // The cause goes to the log, with the request id.
    expect(lines.find((l) => l.msg === 'not ready')).toMatchObject({
      reqId: res.headers['x-request-id'],
      reason: 'database unavailable',
      // The driver's own words: better-sqlite3's closed connection; on PostgreSQL Drizzle's failed query,
      // with node-postgres's ended pool as its cause (pino appends the causes' messages).
      err: {
        message: {
          sqlite: 'The database connection is not open',
          postgresql: 'Failed query: SELECT 1\nparams: : Cannot use a pool after calling end on the pool',
        }[db.engine],
      },
    });

    // Metrics still answer: process metrics, and the database-read gauges as unknown.
    const scraped = await t.app.inject({ method: 'GET', url: '/metrics' });
    expect(scraped.statusCode).toBe(200);
    expect(sample(scraped.body, 'holds_active')).toBeNaN();
    expect(sample(scraped.body, 'process_cpu_user_seconds_total')).toEqual(expect.any(Number));
  });

  it('is 503 when the newest migration of this build is not applied', async () => {
    const db = await freshDb();
    const t = await startApp(db);
    // Drizzle keeps its ledger in the main schema on SQLite, in a `drizzle` schema of its own on PostgreSQL.
    const ledger = db.engine === 'sqlite' ? '__drizzle_migrations' : 'drizzle.__drizzle_migrations';
    await db.run(`DELETE FROM ${ledger} WHERE created_at = (SELECT max(created_at) FROM ${ledger})`);
    const res = await t.rest('GET', '/readyz');
    expect(res).toMatchObject({ status: 503, body: { status: 'unavailable', reason: 'database migrations pending' } });
  });
});
