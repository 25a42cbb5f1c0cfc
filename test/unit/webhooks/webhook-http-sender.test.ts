import { createServer } from 'node:http';
import { createServer as createTcpServer, type AddressInfo, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpSender } from '../../../src/adapters/webhooks/http-sender.ts';
import { startReceiver, waitFor } from '../../support/webhook-receiver.ts';

let receiver: Awaited<ReturnType<typeof startReceiver>>;
beforeAll(async () => {
  receiver = await startReceiver(({ path }) => {
    if (path === '/fail') return 500;
    if (path === '/moved') return (res) => res.writeHead(301, { location: receiver.url('/target') }).end();
    if (path === '/silent') return () => {};
    return 200;
  });
});
afterAll(() => receiver.close());

const sender = new HttpSender({ allowPrivateAddresses: true });
const send = (url: string, s = sender, timeoutMs = 2000) =>
  s.send({ url, headers: { 'content-type': 'application/json', 'x-test': 'yes' }, body: '{"a":1}', timeoutMs });

describe('HttpSender', () => {
  it('POSTs the body and headers as given and returns the status', async () => {
    expect(await send(receiver.url('/ok'))).toEqual({ status: 200 });
    expect(await send(receiver.url('/fail'))).toEqual({ status: 500 });
    const [request] = receiver.at('/ok');
    expect(request).toMatchObject({
      body: '{"a":1}',
      headers: { 'content-type': 'application/json', 'x-test': 'yes', 'content-length': '7' },
    });
  });

  it('returns a redirect as it is, without following it', async () => {
    expect(await send(receiver.url('/moved'))).toEqual({ status: 301 });
    expect(receiver.at('/target')).toEqual([]);
  });

  it('gives up after the timeout', async () => {
    await expect(send(receiver.url('/silent'), sender, 100)).rejects.toThrow('timed out after 100 ms');
  });

  describe('bounds a peer that accepts the connection and then stalls, at every stage', () => {
    /** A raw TCP peer doing `behave` with each connection; `closedAt` is when the sender's side went away. */
    async function peer(behave: (socket: Socket) => void) {
      const seen: { closedAt?: number } = {};
      const sockets = new Set<Socket>();
      const server = createTcpServer((socket) => {
        sockets.add(socket);
        socket.on('error', () => {});
        socket.on('close', () => (seen.closedAt = performance.now()));
        behave(socket);
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
      // A paused socket never sees the sender's end: closed from this side, or the server would wait for it.
      const close = () => {
        for (const socket of sockets) socket.destroy();
        return new Promise((resolve) => server.close(resolve));
      };
      return { url, seen, close };
    }
    /** Sends a body of `bytes` with a 300 ms timeout; resolves with the outcome and how long it took. */
    async function timed(url: string, bytes = 7) {
      const started = performance.now();
      const body = bytes === 7 ? '{"a":1}' : JSON.stringify({ pad: 'x'.repeat(bytes) });
      const outcome = await sender.send({ url, headers: { 'content-type': 'application/json' }, body, timeoutMs: 300 }).then(
        (answer) => answer,
        (error: Error) => error.message,
      );
      return { outcome, ms: performance.now() - started, started };
    }

    it('never reads the request (a body larger than the socket buffers stays unsent)', async () => {
      // Paused and never read: the sender's write of 8 MiB blocks once the buffers are full.
      const p = await peer((socket) => socket.pause());
      const { outcome, ms } = await timed(p.url, 8 * 1024 * 1024);
      expect(outcome).toBe('timed out after 300 ms');
      expect(ms).toBeGreaterThanOrEqual(290);
      expect(ms).toBeLessThan(1000);
      await p.close();
    });

    it('reads the request and sends half a status line and headers, then nothing', async () => {
      const p = await peer((socket) => {
        socket.resume();
        socket.write('HTTP/1.1 200 OK\r\nContent-Type: text/pl');
      });
      const { outcome, ms } = await timed(p.url);
      expect(outcome).toBe('timed out after 300 ms');
      expect(ms).toBeLessThan(1000);
      await p.close();
    });

    it('answers the status at once and trickles a body forever: the status counts, the connection is cut at the timeout', async () => {
      const p = await peer((socket) => {
        socket.resume();
        socket.write('HTTP/1.1 200 OK\r\nContent-Length: 1000000\r\n\r\n');
        const drip = setInterval(() => socket.write('x'), 20);
        socket.on('close', () => clearInterval(drip));
      });
      const { outcome, ms, started } = await timed(p.url);
      expect(outcome).toEqual({ status: 200 });
      expect(ms).toBeLessThan(250);
      await waitFor('the connection cut', () => p.seen.closedAt !== undefined, 2000);
      expect(p.seen.closedAt! - started).toBeGreaterThanOrEqual(290);
      expect(p.seen.closedAt! - started).toBeLessThan(1000);
      await p.close();
    });

    it('counts the time already spent on the attempt (name resolution) against the timeout', async () => {
      const p = await peer((socket) => socket.resume());
      const started = performance.now();
      await expect(
        sender.send({ url: p.url, headers: {}, body: '{}', timeoutMs: 300, startedAt: performance.now() - 200 }),
      ).rejects.toThrow('timed out after 300 ms');
      expect(performance.now() - started).toBeLessThan(250);
      await p.close();
    });
  });

  it('reports a refused connection', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise((resolve) => closed.close(resolve));
    await expect(send(`http://127.0.0.1:${port}/`)).rejects.toThrow('connection refused');
  });

  it('refuses to connect to a host name that resolves to a private address when those are not allowed', async () => {
    const guarded = new HttpSender({ allowPrivateAddresses: false });
    await expect(send(`http://localhost:${receiver.port}/guarded`, guarded)).rejects.toThrow(
      /^localhost resolves to a non-public address \((127\.0\.0\.1|::1)\)$/,
    );
    expect(receiver.at('/guarded')).toEqual([]);
    expect(await send(`http://localhost:${receiver.port}/open`)).toEqual({ status: 200 });
  });
});
