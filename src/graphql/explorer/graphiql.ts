/**
 * GraphiQL at GET /graphiql, served entirely by Tessera: the graphiql package's UMD build, the React it
 * runs on and a small start script, straight from node_modules. Unlike Apollo Sandbox (loaded from
 * Apollo's CDN) it works offline and behind firewalls.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';

export const GRAPHIQL_PATH = '/graphiql';
const ASSETS_PREFIX = `${GRAPHIQL_PATH}/assets/`;

/** The page and its start script; found from src/ and from the compiled dist/ alike (as schema/ is). */
const pageDir = join(dirname(fileURLToPath(import.meta.url)), '../../../src/graphql/explorer');
const require = createRequire(import.meta.url);
const packageDir = (name: string) => dirname(require.resolve(`${name}/package.json`));

/** Where each file the page loads lives; nothing else under the prefix is served. */
const roots = [join(packageDir('react'), 'umd'), join(packageDir('react-dom'), 'umd'), join(packageDir('graphiql'), 'dist'), pageDir];
const assets = new Set([
  '/react.production.min.js',
  '/react-dom.production.min.js',
  '/index.umd.js',
  '/style.css',
  '/explorer.js',
  '/explorer.css',
]);

/**
 * Scripts and styles from this origin only (GraphiQL sets inline style attributes, and its fonts are
 * inlined as data: URLs); queries go to this origin's /graphql, subscriptions to its WebSocket ('self'
 * covers ws: and wss: of the same host since CSP Level 3).
 */
const contentSecurityPolicy = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  'font-src data:',
  "img-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

export async function registerGraphiQL(app: FastifyInstance): Promise<void> {
  const page = readFileSync(join(pageDir, 'graphiql.html'), 'utf8');
  await app.register(fastifyStatic, {
    root: roots,
    prefix: ASSETS_PREFIX,
    // @fastify/swagger-ui registers @fastify/static too: one reply decorator is enough.
    decorateReply: false,
    index: false,
    allowedPath: (pathName) => assets.has(pathName),
    schemaHide: true,
  });
  app.get(GRAPHIQL_PATH, { schema: { hide: true } }, async (_request, reply) =>
    reply.type('text/html; charset=utf-8').header('content-security-policy', contentSecurityPolicy).send(page),
  );
}
