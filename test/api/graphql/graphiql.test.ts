/** GraphiQL at /graphiql works offline: every file it loads is served by Tessera; the landing page links to it. */
import { beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp } from '../../support/app.ts';
import { freshDb } from '../../support/db.ts';

let t: TestApp;
let prod: TestApp;
beforeAll(async () => {
  t = await startApp(await freshDb());
  prod = await startApp(await freshDb(), { production: true });
});

const get = (app: TestApp, url: string, headers: Record<string, string> = {}) => app.app.inject({ method: 'GET', url, headers });

/** The URLs of the page's scripts and stylesheets, in order. */
function loadedUrls(html: string): string[] {
  return [...html.matchAll(/<script[^>]*\ssrc="([^"]+)"|<link[^>]*\shref="([^"]+)"/g)].map((m) => (m[1] ?? m[2])!);
}

describe('GET /graphiql', () => {
  it('answers a page that loads React, GraphiQL and its start script from Tessera itself', async () => {
    const res = await get(t, '/graphiql');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(loadedUrls(res.body)).toEqual([
      '/graphiql/assets/style.css',
      '/graphiql/assets/explorer.css',
      '/graphiql/assets/react.production.min.js',
      '/graphiql/assets/react-dom.production.min.js',
      '/graphiql/assets/index.umd.js',
      '/graphiql/assets/explorer.js',
    ]);
    expect(res.body).not.toMatch(/https?:|\/\/[a-z]/i);
  });

  it('serves every script and stylesheet it names, with its content type', async () => {
    const page = (await get(t, '/graphiql')).body;
    const answers = await Promise.all(loadedUrls(page).map(async (url) => [url, await get(t, url)] as const));
    for (const [url, res] of answers) {
      expect({ url, status: res.statusCode }).toEqual({ url, status: 200 });
      expect(res.headers['content-type']).toMatch(url.endsWith('.css') ? /^text\/css/ : /^(text|application)\/javascript/);
      expect(res.body.length).toBeGreaterThan(0);
    }
    const byUrl = Object.fromEntries(answers.map(([url, res]) => [url, res.body]));
    // The UMD globals the start script uses, and what it starts GraphiQL with.
    expect(byUrl['/graphiql/assets/react.production.min.js']).toContain('React');
    expect(byUrl['/graphiql/assets/index.umd.js']).toContain('.GraphiQL=');
    expect(byUrl['/graphiql/assets/explorer.js']).toContain("url: '/graphql',");
    // Subscriptions over graphql-ws on the same path (bundled in GraphiQL's build).
    expect(byUrl['/graphiql/assets/explorer.js']).toContain(
      "subscriptionUrl: `${location.protocol === 'https:' ? 'wss:' : 'ws:'}//${location.host}/graphql`",
    );
    expect(byUrl['/graphiql/assets/index.umd.js']).toContain('graphql-transport-ws');
    expect(byUrl['/graphiql/assets/explorer.js']).toContain('Authorization');
  });

  it('lets the page load scripts and styles only from its own origin', async () => {
    const csp = String((await get(t, '/graphiql')).headers['content-security-policy']);
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("connect-src 'self'");
    expect(csp).toContain("default-src 'none'");
  });

  it.each([
    '/graphiql/assets/react.development.js',
    '/graphiql/assets/index.umd.js.map',
    '/graphiql/assets/index.mjs',
    '/graphiql/assets/graphiql.ts',
    '/graphiql/assets/../package.json',
    '/graphiql/assets/%2e%2e/%2e%2e/package.json',
  ])('serves nothing else from node_modules or src: %s is 404', async (url) => {
    expect((await get(t, url)).statusCode).toBe(404);
  });

  it('is not served in production, where the landing page is off too', async () => {
    expect((await get(prod, '/graphiql')).statusCode).toBe(404);
    expect((await get(prod, '/graphiql/assets/index.umd.js')).statusCode).toBe(404);
  });
});

describe('the landing page at GET /graphql', () => {
  it('links to /graphiql and /docs beside "Sandbox cannot be loaded"', async () => {
    const res = await get(t, '/graphql', { accept: 'text/html' });
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('Apollo Sandbox cannot be loaded');
    const fallback = res.body.slice(res.body.indexOf('<div class="fallback">'));
    expect(fallback.slice(0, fallback.indexOf('</div>'))).toContain(
      '<p>Offline or behind a firewall? <a href="/graphiql">GraphiQL</a> is served by Tessera itself, and so is the REST reference at <a href="/docs">/docs</a>.</p>',
    );
  });
});
