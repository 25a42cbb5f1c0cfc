/**
 * What both peers share with Tessera: the database file, the domain dependencies built as buildApp
 * builds them (src/app.ts), and the one GraphQL context factory (src/graphql/context.ts).
 */
import { loadConfig } from '../../src/config.ts';
import { openSqliteDatabase } from '../../src/db/sqlite/database.ts';
import type { Deps } from '../../src/domain/shared/deps.ts';
import { graphqlContextFactory } from '../../src/graphql/context.ts';
import { SandboxProcessor } from '../../src/adapters/sandbox-processor.ts';
import { webhookRuntime } from '../../src/jobs/webhook-settings.ts';

export { loadTypeDefs } from '../../src/graphql/server.ts';
export { resolvers } from '../../src/graphql/resolvers/index.ts';

/** The per-request context builder, on the database named by DATABASE_URL. */
export function peerContext() {
  const config = loadConfig();
  const now = () => new Date();
  const deps: Deps = {
    db: openSqliteDatabase(config.DATABASE_URL).database,
    now,
    payments: new SandboxProcessor({ now }),
    holdTtlSeconds: config.HOLD_TTL_SECONDS,
    waitlistOfferTtlSeconds: config.WAITLIST_OFFER_TTL_SECONDS,
  };
  return graphqlContextFactory(deps, webhookRuntime(config).settings);
}
