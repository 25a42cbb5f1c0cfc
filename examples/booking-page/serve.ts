/**
 * Serves the example booking page on its own origin (http://127.0.0.1:5173 by default), as a shop's web
 * server would: `npm run booking-page`, then open the printed URL with `npm start` running. PORT and
 * GATEWAY (http://127.0.0.1:4000) change the defaults; the page takes `?gateway=...&key=pk_...`.
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath, pathToFileURL } from 'node:url';

const page = (name: string) => new URL(name, import.meta.url);
/**
 * graphql-ws's browser build (a UMD script that defines `window.graphqlWs`), from the installed package:
 * the page loads its WebSocket client from its own server, no CDN. The package exports no such subpath,
 * so it is found next to the package's entry point.
 */
const graphqlWs = new URL('../umd/graphql-ws.min.js', pathToFileURL(createRequire(import.meta.url).resolve('graphql-ws')));

const files: Record<string, URL> = {
  '/': page('index.html'),
  '/index.html': page('index.html'),
  '/booking-page.js': page('booking-page.js'),
  '/style.css': page('style.css'),
  '/graphql-ws.js': graphqlWs,
};
const types: Record<string, string> = { html: 'text/html', js: 'text/javascript', css: 'text/css' };

/** Starts the page's server on `port` (0: any free one); resolves with its origin and a way to stop it. */
export async function serveBookingPage(port: number, host = '127.0.0.1'): Promise<{ origin: string; server: Server }> {
  const server = createServer((request, response) => {
    const file = files[new URL(request.url ?? '/', 'http://page').pathname];
    if (!file || request.method !== 'GET') {
      response.writeHead(404, { 'content-type': 'text/plain' }).end('Not found');
      return;
    }
    readFile(file).then(
      (body) => response.writeHead(200, { 'content-type': `${types[file.pathname.split('.').pop()!]}; charset=utf-8` }).end(body),
      () => response.writeHead(500, { 'content-type': 'text/plain' }).end('Cannot read the page'),
    );
  });
  await new Promise<void>((resolve) => server.listen(port, host, resolve));
  return { origin: `http://${host}:${(server.address() as AddressInfo).port}`, server };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const port = Number(process.env.PORT ?? 5173);
  const gateway = process.env.GATEWAY ?? 'http://127.0.0.1:4000';
  serveBookingPage(port).then(
    ({ origin }) => process.stdout.write(`Booking page: ${origin}/?gateway=${gateway}&key=pk_test_lisbon_demo\n`),
    (error: unknown) => {
      process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
      process.exit(1);
    },
  );
}
