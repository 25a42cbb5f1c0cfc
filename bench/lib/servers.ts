/**
 * The servers of the timed part: Tessera, the two peers on Tessera's database, and the bare server
 * answering what Tessera answered. Their answers are captured and checked here, before any timing.
 */
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { captureAnswers, writeCannedAnswers, type Servers } from './answers.ts';
import { startCompiledServer, startServer, type CompiledOptions } from './processes.ts';
import type { Answer } from './requests.ts';
import { targets } from './targets.ts';

/**
 * Tessera as production runs it; only the rate limits are raised (to their cap) so the bench is not
 * throttled. The anonymous budget matters too: the sandbox's payment confirmation carries no API key.
 */
export const tesseraEnv = (databaseUrl: string) => ({
  DATABASE_URL: databaseUrl,
  NODE_ENV: 'production',
  ENCRYPTION_KEY: randomBytes(32).toString('base64'),
  PAYMENT_PROCESSOR: 'sandbox',
  LOG_LEVEL: 'info',
  RATE_LIMIT_PER_MINUTE: '1000000',
  RATE_LIMIT_ANONYMOUS_PER_MINUTE: '1000000',
  RATE_LIMIT_PUBLISHABLE_CLIENT_PER_MINUTE: '1000000',
});

/** Tessera compiled (`npm run build` has run), as `node dist/main.js` runs in production. */
export const startTessera = (name: string, databaseUrl: string, env: Record<string, string> = {}, options: CompiledOptions = {}) =>
  startCompiledServer(name, 'dist/main.js', { ...tesseraEnv(databaseUrl), ...env }, options);

/** Starts every server, checks their answers agree, and returns each target's expected answer. */
export async function startServers(dir: string, databaseUrl: string): Promise<{ servers: Servers; answers: Map<string, Answer> }> {
  // The peers read the same settings Tessera does (DATABASE_URL, hold times); NODE_ENV=production for all.
  const env = tesseraEnv(databaseUrl);
  const [tessera, uncached, apollo, mercurius] = await Promise.all([
    startTessera('Tessera', databaseUrl),
    // The same Tessera without its response cache: what its GraphQL execution alone does against the peers.
    startTessera('Tessera, no response cache', databaseUrl, { RESPONSE_CACHE_MAX_BYTES: '0' }),
    startServer('P1 Apollo default', 'bench/peers/apollo-default.ts', env),
    startServer('P2 Mercurius jit', 'bench/peers/mercurius-jit.ts', env),
  ]);
  const answers = await captureAnswers(
    { tessera, uncached, apollo, mercurius },
    new Set(targets.filter((t) => t.server !== 'bare').map((t) => t.name)),
  );
  const canned = writeCannedAnswers(join(dir, 'answers.json'), answers);
  const bare = await startServer('L bare node:http', 'bench/servers/bare-http.ts', { BENCH_ANSWERS: canned, NODE_ENV: 'production' });
  const servers = { tessera, uncached, apollo, mercurius, bare };
  const limit = await captureAnswers(servers, new Set(['T1', 'L-T1', 'T2', 'L-T2']));
  for (const name of ['L-T1', 'L-T2']) answers.set(name, limit.get(name)!);
  return { servers, answers };
}
