import { defineConfig } from 'vitest/config';

/**
 * Two projects. `sqlite` runs every test file. `postgresql` runs the store contract and the API behaviour
 * tests again with the app on PostgreSQL (test/support/engine.ts): only when TEST_POSTGRES_URL names a
 * server, or when TESSERA_REQUIRE_POSTGRES=1 asks for one (then its absence fails them instead).
 */
const postgres = Boolean(process.env.TEST_POSTGRES_URL) || process.env.TESSERA_REQUIRE_POSTGRES === '1';

/**
 * API test files that run on SQLite only, their subject being SQLite itself: the statements a request
 * sends it (counted, captured), a second connection or process writing the same file (the response
 * cache's data version, the secrets CLI). Every other API file runs on PostgreSQL too, its world kept in
 * step with the app's database (test/support/engine.ts); single tests that break or count SQLite are
 * skipped there (`itOnSqlite`).
 */
const sqliteOnly = [
  'test/api/access/secret-comparison.test.ts',
  'test/api/http/response-cache.test.ts',
  'test/api/operations/key-rotation.test.ts',
];

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
                include: ['test/api/**/*.test.ts'],
                exclude: sqliteOnly,
                env: { TESSERA_TEST_ENGINE: 'postgresql' },
              },
            },
          ]
        : []),
    ],
  },
});
