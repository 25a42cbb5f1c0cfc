import { describe, expect, it } from 'vitest';
import { startBanner } from '../../../src/banner.ts';

const input = {
  base: 'http://127.0.0.1:4000',
  database: './data/tessera.sqlite',
  demoDataLoaded: true,
  demoKeys: [{ secret: 'sk_test_lisbon_demo', label: 'Brand key: Harbor Lisbon (EUR)' }],
};

describe('the start banner (what README says npm start prints)', () => {
  it('names GraphQL, GraphiQL, the live endpoints, REST, health and the demo keys in development', () => {
    const lines = startBanner({ ...input, production: false }).split('\n');
    expect(lines).toContain('Tessera is listening on http://127.0.0.1:4000');
    expect(lines).toContain('  GraphiQL: http://127.0.0.1:4000/graphiql  (served by Tessera, works offline)');
    expect(lines).toContain(
      '  Live:     ws://127.0.0.1:4000/graphql (WebSocket)   http://127.0.0.1:4000/graphql/stream (Server-Sent Events)',
    );
    expect(lines).toContain('  Health:   http://127.0.0.1:4000/healthz   Ready: http://127.0.0.1:4000/readyz');
    expect(lines).toContain('  Database: ./data/tessera.sqlite (demo data loaded)');
    expect(lines).toContain('    sk_test_lisbon_demo        Brand key: Harbor Lisbon (EUR)');
  });

  it('leaves out GraphiQL, Sandbox and the demo keys in production', () => {
    const banner = startBanner({ ...input, production: true, demoDataLoaded: false });
    expect(banner).not.toContain('graphiql');
    expect(banner).not.toContain('Sandbox');
    expect(banner).not.toContain('sk_test_');
    expect(banner).toContain('  GraphQL:  http://127.0.0.1:4000/graphql\n');
  });
});
