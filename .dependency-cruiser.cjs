/**
 * The layers' boundaries (ARCHITECTURE.md): data flows transport -> domain -> port -> adapter, never back.
 * `npm run lint` checks them on every import, types included.
 */
module.exports = {
  forbidden: [
    {
      name: 'domain-owns-no-infrastructure',
      comment:
        "The domain owns the port (each area's store.ts, the unit of work in shared/database.ts) and depends on nothing below it: no driver, query builder, adapter or transport.",
      severity: 'error',
      from: { path: '^src/domain/' },
      to: {
        path: [
          '^node_modules/(drizzle-orm|better-sqlite3|pg|fastify|@fastify|graphql|@apollo|@as-integrations|pino|prom-client)/',
          '^src/db/(sqlite|postgres|demo)/',
          '^src/db/connect\\.ts$',
          '^src/(graphql|rest|http|auth|observability|adapters|jobs|cli)/',
          '^src/(app|main|config)\\.ts$',
        ],
      },
    },
    {
      name: 'transports-reach-the-database-through-the-domain',
      comment: 'GraphQL resolvers, REST routes and MCP tools call domain functions; they never touch src/db.',
      severity: 'error',
      from: { path: '^src/(graphql|rest|mcp)/' },
      to: { path: '^src/db/' },
    },
    {
      name: 'engines-apart',
      comment: 'Each adapter meets the port on its own: neither imports the other, not even its types.',
      severity: 'error',
      from: { path: '^src/db/(sqlite|postgres)/' },
      to: { path: '^src/db/(sqlite|postgres)/', pathNot: ['^src/db/$1/'] },
    },
    {
      name: 'tests-and-benchmarks-apart',
      comment:
        "Tests and benchmarks share data factories and documents through fixtures/, never each other; a unit test of the bench's own arithmetic (test/unit/bench-*) is the one exception.",
      severity: 'error',
      from: { path: '^(test|bench)/', pathNot: '^test/unit/bench-' },
      to: { path: '^(test|bench)/', pathNot: ['^$1/'] },
    },
    {
      name: 'examples-are-outside-clients',
      comment: 'Example clients use Tessera only over HTTP, as a partner would: never its code, tests or fixtures.',
      severity: 'error',
      from: { path: '^examples/' },
      to: { path: '^(src|test|bench|fixtures)/' },
    },
    {
      name: 'no-circular',
      severity: 'error',
      from: {},
      to: { circular: true, dependencyTypesNot: ['type-only'], viaOnly: { dependencyTypesNot: ['type-only'] } },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^src/graphql/__generated__/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default', 'types'] },
  },
};
