/**
 * A local stand-in for Cloudflare Turnstile's Siteverify endpoint, answering as Cloudflare does: JSON
 * `{ success, "error-codes", ... }`, by the token it is sent. `human` passes; `used` and `forged` are
 * refused (`timeout-or-duplicate`, `invalid-input-response`); `cf-internal` is Cloudflare's
 * `internal-error`; `cf-500` a 500; `cf-outage` an HTML page with status 200; `cf-silent` never answers.
 * A wrong secret is `invalid-input-secret`, whatever the token. Every request's JSON body is kept.
 */
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export const SITEVERIFY_PATH = '/turnstile/v0/siteverify';

export interface SiteverifyRequest {
  path: string;
  contentType: string | undefined;
  body: { secret?: string; response?: string; remoteip?: string };
}

const json = (res: ServerResponse, status: number, body: unknown) =>
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));

export async function startFakeTurnstile(secret: string) {
  const requests: SiteverifyRequest[] = [];
  const sockets = new Set<Socket>();
  const server = createServer((req, res) => {
    let raw = '';
    req.on('data', (chunk: Buffer) => (raw += chunk.toString()));
    req.on('end', () => {
      const body = JSON.parse(raw || '{}') as SiteverifyRequest['body'];
      requests.push({ path: req.url ?? '', contentType: req.headers['content-type'], body });
      if (req.method !== 'POST' || req.url !== SITEVERIFY_PATH) return json(res, 404, { success: false, 'error-codes': ['bad-request'] });
      if (body.secret !== secret) return json(res, 200, { success: false, 'error-codes': ['invalid-input-secret'] });
      switch (body.response) {
        case 'human':
          return json(res, 200, { success: true, challenge_ts: '2027-02-01T11:59:00.000Z', hostname: 'shop.example', 'error-codes': [] });
        case 'used':
          return json(res, 200, { success: false, 'error-codes': ['timeout-or-duplicate'] });
        case 'cf-internal':
          return json(res, 200, { success: false, 'error-codes': ['internal-error'] });
        case 'cf-500':
          return json(res, 500, { success: false });
        case 'cf-outage':
          return res.writeHead(200, { 'content-type': 'text/html' }).end('<html><body>Down for maintenance</body></html>');
        case 'cf-silent':
          return;
        default:
          return json(res, 200, { success: false, 'error-codes': ['invalid-input-response'] });
      }
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    close: () => {
      for (const socket of sockets) socket.destroy();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
