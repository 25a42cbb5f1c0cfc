/**
 * What an open WebSocket costs and how it ends: the keep-alive cuts off a client that stopped answering
 * pings, a client breaking the protocol gets the close code that says why, and an established connection
 * keeps none of the upgrade's HTTP objects (thousands of idle subscribers would each hold them).
 */
import { tracingChannel } from 'node:diagnostics_channel';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { startApp, type TestApp } from '../../support/app.ts';
import { freshDb } from '../../support/db.ts';
import { createApiKey, createBrand } from '../../../fixtures/factories/brands.ts';
import { listen, type Listening } from '../../support/live.ts';

const KEEP_ALIVE_MS = 150;

const db = await freshDb();
const brand = await createBrand(db);
const secret = (await createApiKey(db, { brandId: brand.id })).secret;

let t: TestApp;
let at: Listening;
beforeAll(async () => {
  t = await startApp(db, { live: { LIVE_KEEP_ALIVE_MS: KEEP_ALIVE_MS } });
  at = await listen(t.app);
});

interface RawConnection {
  socket: WebSocket;
  pings: number;
  closed: Promise<{ code: number; reason: string }>;
}

/** A graphql-transport-ws connection made by hand, acknowledged; `autoPong: false` leaves pings unanswered. */
async function rawConnection(options: { autoPong?: boolean } = {}): Promise<RawConnection> {
  const socket = new WebSocket(at.ws, 'graphql-transport-ws', { autoPong: options.autoPong ?? true });
  const connection: RawConnection = {
    socket,
    pings: 0,
    closed: new Promise((resolve) => socket.once('close', (code, reason) => resolve({ code, reason: String(reason) }))),
  };
  socket.on('ping', () => (connection.pings += 1));
  await new Promise((resolve, reject) => {
    socket.once('open', resolve);
    socket.once('error', reject);
  });
  socket.send(JSON.stringify({ type: 'connection_init', payload: { authorization: `Bearer ${secret}` } }));
  const ack = await new Promise((resolve) => socket.once('message', (data) => resolve(JSON.parse(String(data)))));
  expect(ack).toEqual({ type: 'connection_ack' });
  return connection;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('keep-alive', () => {
  it('cuts off a client that stopped answering pings within two intervals, and keeps one that answers', async () => {
    const answering = await rawConnection();
    const silent = await rawConnection({ autoPong: false });
    const started = Date.now();
    // Terminated, not closed: a client that does not answer pings would not answer a close either.
    expect(await silent.closed).toEqual({ code: 1006, reason: '' });
    expect(Date.now() - started).toBeLessThan(2 * KEEP_ALIVE_MS + 200);
    expect(silent.pings).toBe(1);
    await sleep(4 * KEEP_ALIVE_MS);
    expect(answering.socket.readyState).toBe(WebSocket.OPEN);
    expect(answering.pings).toBeGreaterThanOrEqual(4);
    answering.socket.close();
  });
});

describe('a client breaking the protocol', () => {
  it('gets 1009 for a message above 1 MiB, and the gateway goes on serving others', async () => {
    const large = await rawConnection();
    large.socket.send('x'.repeat(1024 * 1024 + 1));
    expect(await large.closed).toEqual({ code: 1009, reason: '' });
    const next = await rawConnection();
    next.socket.close();
  });
});

describe('memory of an open connection', () => {
  it("keeps none of the upgrade's Fastify request, reply or Node response once connected", async () => {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    const held: Record<string, WeakRef<object>> = {};
    // Fastify reports each route handler's request and reply (the upgrade's too) on this channel.
    const handler = tracingChannel<unknown, { request: { raw: object }; reply: { raw: object } }>('fastify.request.handler');
    const start = ({ request, reply }: { request: { raw: object }; reply: { raw: object } }) => {
      Object.assign(held, {
        request: new WeakRef(request),
        reply: new WeakRef(reply),
        incomingMessage: new WeakRef(request.raw),
        serverResponse: new WeakRef(reply.raw),
      });
    };
    const handlers = { start, end: () => {}, asyncStart: () => {}, asyncEnd: () => {}, error: () => {} };
    handler.subscribe(handlers);
    let connection: RawConnection;
    try {
      connection = await rawConnection();
    } finally {
      handler.unsubscribe(handlers);
    }
    expect(Object.keys(held)).toEqual(['request', 'reply', 'incomingMessage', 'serverResponse']);
    for (let i = 0; i < 3; i++) {
      await sleep(10);
      gc();
    }
    expect(Object.fromEntries(Object.entries(held).map(([name, ref]) => [name, ref.deref() === undefined ? 'collected' : 'kept']))).toEqual(
      {
        request: 'collected',
        reply: 'collected',
        incomingMessage: 'collected',
        serverResponse: 'collected',
      },
    );
    expect(connection.socket.readyState).toBe(WebSocket.OPEN);
    connection.socket.close();
  });
});
