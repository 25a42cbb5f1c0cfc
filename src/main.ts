import { buildApp } from './app.ts';
import { startBanner } from './banner.ts';
import { ConfigError, loadConfig } from './config.ts';
import { connect } from './db/connect.ts';
import { DatabaseUnavailableError } from './domain/shared/database.ts';
import { redactDatabaseUrl } from './db/engine.ts';
import { demoKeys } from './db/demo/index.ts';
import { governHeapGrowth } from './heap.ts';
import { exitOnSignals } from './shutdown.ts';

async function main() {
  const config = loadConfig();
  governHeapGrowth(config.HEAP_GROWING_PERCENT);
  const { database: db, loadDemoDataIfEmpty } = await connect(config.DATABASE_URL, {
    poolSize: config.DATABASE_POOL_SIZE,
    connectTimeoutMs: config.DATABASE_CONNECT_TIMEOUT_MS,
    admission: { queueTimeoutMs: config.WRITE_QUEUE_TIMEOUT_MS },
  });
  const seeded = config.production ? false : await loadDemoDataIfEmpty();
  const app = await buildApp({ db, config });

  exitOnSignals({
    stopReadiness: () => app.readiness.shutDown(),
    drainWindowMs: config.SHUTDOWN_DRAIN_MS,
    async close() {
      await app.close();
      await db.close();
    },
    timeoutMs: config.SHUTDOWN_TIMEOUT_MS,
    log: app.log,
  });

  await app.listen({ port: config.PORT, host: config.HOST });
  const base = `http://${config.HOST.includes(':') ? `[${config.HOST}]` : config.HOST}:${app.server.address() && typeof app.server.address() === 'object' ? (app.server.address() as { port: number }).port : config.PORT}`;
  process.stdout.write(
    startBanner({
      base,
      production: config.production,
      database: redactDatabaseUrl(config.DATABASE_URL),
      demoDataLoaded: seeded,
      demoKeys: config.production ? [] : demoKeys,
    }),
  );
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError || error instanceof DatabaseUnavailableError) {
    process.stderr.write(`${error.message}\n`);
  } else {
    process.stderr.write(`Tessera failed to start: ${error instanceof Error ? error.stack : String(error)}\n`);
  }
  process.exit(1);
});
