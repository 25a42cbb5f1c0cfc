import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedWebhook {
  path: string;
  headers: IncomingHttpHeaders;
  /** The raw body, byte for byte as sent (what a signature is checked against). */
  body: string;
  /** The status the receiver answered. */
  status: number;
  receivedAt: number;
}

/** Decides the answer to a request: a status, or a function that answers (or never does) itself. */
export type Responder = (request: { path: string; body: string; count: number }) => number | ((res: ServerResponse) => void);

/**
 * A real HTTP server on 127.0.0.1 (a free port) that records every request. `respond` decides each
 * answer (200 by default); `count` is how many requests with the same body came before.
 */
export async function startReceiver(respond: Responder = () => 200) {
  const received: ReceivedWebhook[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const path = req.url ?? '/';
      const answer = receiver.respond({ path, body, count: received.filter((r) => r.body === body && r.path === path).length });
      received.push({ path, headers: req.headers, body, status: typeof answer === 'number' ? answer : 0, receivedAt: Date.now() });
      if (typeof answer === 'number') res.writeHead(answer, { 'content-type': 'text/plain' }).end('ok');
      else answer(res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  const receiver = {
    respond,
    received,
    port,
    url: (path = '/hook') => `http://127.0.0.1:${port}${path}`,
    /** Requests to `path`, in arrival order. */
    at: (path: string) => received.filter((r) => r.path === path),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  return receiver;
}

/** Polls `check` until it returns true; fails after `timeoutMs` with `what`. */
export async function waitFor(what: string, check: () => boolean | Promise<boolean>, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await check()) return;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
