/**
 * Admission control and deadlines on both faces. A gateway takes WRITE_QUEUE_LIMIT write requests at once:
 * the next is answered 503 OVERLOADED with Retry-After at once instead of queueing; a write whose client
 * left before it committed writes nothing (no hold for a client that gave up); reads are served while
 * writes wait. Checkouts are kept in flight by a processor that holds their intents (between their reads
 * and their write), or by units that hold every turn a unit can have (holdEveryTurn): what a burst
 * looks like to the requests behind it.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { createSession } from '../../../fixtures/factories/bookings.ts';
import { createBrandFamily } from '../../../fixtures/factories/brands.ts';
import { createExperience } from '../../../fixtures/factories/catalog.ts';
import { SandboxProcessor } from '../../../src/adapters/sandbox-processor.ts';
import { startApp } from '../../support/app.ts';
import { CREATE_PAYMENT_INTENT, guest } from '../../support/checkout.ts';
import { CHECKOUT_NOW } from '../../support/clock.ts';
import { freshDb, testEngine } from '../../support/db.ts';
import { invariantViolations } from '../../support/invariants.ts';
import { holdEveryTurn } from '../../support/turns.ts';

const itOnPostgres = it.skipIf(testEngine !== 'postgresql');

const db = await freshDb();
const { brand, keys } = await createBrandFamily(db);
const sail = (await createExperience(db, brand.id, { title: 'Sunset Sail' })).experience;

/** The sandbox processor; while held, each createIntent waits until the test opens it. */
class HeldProcessor extends SandboxProcessor {
  private arrivals: { count: number; reached: () => void } | null = null;
  private gate: Promise<void> | null = null;

  /** Holds the next calls; `arrived` resolves once `count` of them wait, `open` lets every one go. */
  hold(count: number): { arrived: Promise<void>; open: () => void } {
    let open!: () => void;
    this.gate = new Promise<void>((resolve) => (open = resolve));
    const arrived = new Promise<void>((reached) => (this.arrivals = { count, reached }));
    return {
      arrived,
      open: () => {
        this.gate = null;
        open();
      },
    };
  }

  override async createIntent(input: Parameters<SandboxProcessor['createIntent']>[0]) {
    const gate = this.gate;
    if (this.arrivals && --this.arrivals.count === 0) this.arrivals.reached();
    if (gate) await gate;
    return super.createIntent(input);
  }
}

// At CHECKOUT_NOW: the sessions it books (March 2027) are ahead whatever day the suite runs.
const now = () => new Date(CHECKOUT_NOW);
const payments = new HeldProcessor({ now });
const lines: Array<Record<string, any>> = [];
const t = await startApp(db, {
  now,
  payments,
  http: { WRITE_QUEUE_LIMIT: 2 },
  logStream: { write: (line) => lines.push(JSON.parse(line)) },
});

let day = 0;
const session = () => {
  day += 1;
  return createSession(db, sail, { startLocal: `2027-03-${String(day).padStart(2, '0')}T18:00:00`, capacity: 10 });
};
const body = (s: { startLocal: string }) => ({
  data: [{ experienceId: sail.id, sessionTime: s.startLocal.slice(0, 16), participants: [guest('Ana')] }],
});
const path = () => `/v1/brands/${brand.id}/carts/${randomUUID()}/payment_intents`;
const reserved = async (sessionId: string) => (await db.row('sessions', { id: sessionId }))!.reserved;
const overloaded = {
  code: 'OVERLOADED',
  message: 'The server has more writes waiting than it can take; nothing was written: retry the request',
};

// Whatever the fault did, places, money and events still add up.
afterAll(async () => expect(await invariantViolations(db)).toEqual([]));

describe('a gateway with more writes than it takes', () => {
  it('answers the write past WRITE_QUEUE_LIMIT 503 OVERLOADED with Retry-After at once, on both faces, and runs the ones it took', async () => {
    const s = await session();
    const intents = payments.hold(2);
    const admitted = [
      t.rest('POST', path(), { key: keys.brand, body: body(s) }),
      t.rest('POST', path(), { key: keys.brand, body: body(s) }),
    ];
    try {
      await intents.arrived;
      const rest = await t.rest('POST', path(), { key: keys.brand, body: body(s) });
      expect(rest.status).toBe(503);
      expect(rest.headers['retry-after']).toBe('1');
      expect(rest.body.error).toEqual({ ...overloaded, requestId: rest.headers['x-request-id'] });

      const graphql = await t.gql(CREATE_PAYMENT_INTENT, { brandId: brand.id, cartId: randomUUID(), input: body(s) }, { key: keys.brand });
      expect(graphql.status).toBe(503);
      expect(graphql.headers['retry-after']).toBe('1');
      expect(graphql.body.errors.map((e: { message: string; extensions: { code: string } }) => [e.message, e.extensions.code])).toEqual([
        [overloaded.message, 'OVERLOADED'],
      ]);
      // Reads are not writes: never refused for it.
      const read = await t.rest('GET', `/v1/brands/${brand.id}/experiences/${sail.id}/availability?from=2027-03-01&to=2027-03-31`, {
        key: keys.brand,
      });
      expect(read.status).toBe(200);
      // Load balancers send new work elsewhere meanwhile.
      const ready = await t.rest('GET', '/readyz');
      expect([ready.status, ready.body]).toEqual([503, { status: 'unavailable', reason: 'write queue saturated' }]);
    } finally {
      intents.open();
    }
    expect((await Promise.all(admitted)).map((r) => r.status)).toEqual([201, 201]);
    expect(await reserved(s.id)).toBe(2);
    // Those two answered, the gateway takes writes again.
    expect((await t.rest('GET', '/readyz')).status).toBe(200);
    expect((await t.rest('POST', path(), { key: keys.brand, body: body(s) })).status).toBe(201);
    expect(await reserved(s.id)).toBe(3);
  });

  it('writes nothing for a client that left before its write: no hold for a client that gave up', async () => {
    const s = await session();
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = t.app.server.address() as { port: number };
    // The server sees the client leave: the response closes before anything was sent.
    const left = new Promise<void>((resolve) => t.app.server.once('request', (_req, res) => res.once('close', () => resolve())));
    const intents = payments.hold(1);
    const client = new AbortController();
    const request = fetch(`http://127.0.0.1:${port}${path()}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${keys.brand}`, 'content-type': 'application/json' },
      body: JSON.stringify(body(s)),
      signal: client.signal,
    });
    try {
      // Its reads are done and the processor answers; the write comes next.
      await intents.arrived;
      client.abort();
      await expect(request).rejects.toThrow('This operation was aborted');
      await left;
    } finally {
      intents.open();
    }
    const gone = 'The request ended (its client left, or it ran out of time) before its unit of work committed';
    await expect.poll(() => lines.some((line) => line.msg === 'write refused: overloaded' && line.reason === gone)).toBe(true);
    expect(await reserved(s.id)).toBe(0);
    expect(await db.count('bookings')).toBe(3);
  });

  // On SQLite a read waits for the unit holding the one writer (it must not see what that unit has not
  // committed), so a unit held open is no picture of a burst there; reads go before the units waiting
  // instead (test/sqlite/unit-of-work.test.ts).
  itOnPostgres('serves reads while every turn of the database for writes is taken and writes wait for one', async () => {
    const s = await session();
    const turns = await holdEveryTurn(db);
    let write: Promise<{ status: number }> | undefined;
    try {
      write = t.rest('POST', path(), { key: keys.brand, body: body(s) });
      const read = await t.rest('GET', `/v1/brands/${brand.id}/experiences/${sail.id}/availability?from=2027-03-01&to=2027-03-31`, {
        key: keys.brand,
      });
      expect(read.status).toBe(200);
      // The write waiting has taken nothing yet.
      expect(read.body.data.find((item: { id: string }) => item.id === s.id)).toMatchObject({ id: s.id, remaining: 10 });
    } finally {
      await turns.release();
    }
    expect((await write)?.status).toBe(201);
    expect(await reserved(s.id)).toBe(1);
  });
});
