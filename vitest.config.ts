import { defineConfig } from 'vitest/config';

/**
 * Two projects. `sqlite` runs every test file. `postgresql` runs the behaviour tests (the API, the domain,
 * the store contract, the docs' examples) again on PostgreSQL, each file in a database of its own (test/support/db.ts): only
 * when TEST_POSTGRES_URL names a server, or when TESSERA_REQUIRE_POSTGRES=1 asks for one (then its absence
 * fails them instead). test/sqlite and test/postgres hold each engine's own tests and run once, in `sqlite`;
 * so does test/compatibility (the published contract against its baselines), which reads no database.
 */
const postgres = Boolean(process.env.TEST_POSTGRES_URL) || process.env.TESSERA_REQUIRE_POSTGRES === '1';

export default defineConfig({
  resolve: {
    // Node loads graphql's CommonJS build (the package has no "exports" map), and so do Apollo and its
    // friends; Vite would give our sources the ESM build, and two graphql copies refuse each other's schema
    // objects ("Cannot use GraphQLObjectType from another module or realm").
    alias: [{ find: /^graphql$/, replacement: 'graphql/index.js' }],
  },
  test: {
    pool: 'forks',
    testTimeout: 20_000,
    hookTimeout: 30_000,
    projects: [
      { extends: true, test: { name: 'sqlite', include: ['test/**/*.test.ts'] } },
      ...(postgres
        ? [
            {
              extends: true as const,
              test: {
                name: 'postgresql',
                include: ['test/{api,unit,contract,browser}/**/*.test.ts', 'test/docs/examples.test.ts'],
                env: { TESSERA_TEST_ENGINE: 'postgresql' },
              },
            },
          ]
        : []),
    ],
  },
});
