/**
 * `npm run bench [-- <rounds> <seconds per round>]`: Tessera (T1..T6, compiled, in production mode)
 * against a default Apollo Server (P1), Mercurius with graphql-jit (P2) and a bare node:http server (L),
 * each in its own process, on the same demo database and the same answers (checked byte for byte
 * before timing); then the scaling checks and the live rows (lib/live.ts), each against a Tessera of
 * their own; then, when BENCH_POSTGRES_URL
 * (or TEST_POSTGRES_URL) names a PostgreSQL role with CREATEDB, T1u, T3u, T5 and T6 on the same data
 * built in PostgreSQL, with one gateway and with two (lib/postgres-rounds.ts). Prints a table,
 * writes bench/results/latest.json.
 * Exits 0 when it measured, even when a target is missed; non-zero when the bench itself failed
 * (answers differ, a request failed or was refused, a server did not start). A PostgreSQL run that
 * fails is reported in the table, the other runs go on, and the bench exits non-zero at the end.
 */
import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { buildMainDatabase, buildScalingDatabase, tempDir } from './lib/data.ts';
import { CONNECTIONS } from './lib/load.ts';
import { createBenchDatabase, describeUrl, postgresAdminUrl, probeDatabase } from './lib/postgres.ts';
import { formatPostgresReport, postgresFailed, timePostgres, type PostgresPhase } from './lib/postgres-rounds.ts';
import { FAN_OUT, formatLiveReport, IDLE, liveEnv, measureLive } from './lib/live.ts';
import { rssMb, sampleRss } from './lib/proc.ts';
import { buildCompiled, killChildrenOnExit, root } from './lib/processes.ts';
import { checks, formatReport, machine, writeJson, type Settings } from './lib/report.ts';
import { timeTargets } from './lib/rounds.ts';
import { CANCEL_SIZES, measureScaling } from './lib/scaling.ts';
import { startServers, startTessera } from './lib/servers.ts';

const settings: Settings = {
  connections: CONNECTIONS,
  rounds: Number(process.argv[2] ?? 3),
  roundSeconds: Number(process.argv[3] ?? 5),
  warmUpSeconds: 2,
};
const SCALING_REVIEWS = 100_000;
const CANCEL_REPETITIONS = 7;
const RESULTS = join(root, 'bench/results/latest.json');

const log = (line: string) => process.stdout.write(`${line}\n`);

async function main() {
  killChildrenOnExit();
  const started = Date.now();
  const dir = tempDir();
  // On every way out, Ctrl-C included (after the servers are killed: see killChildrenOnExit).
  process.on('exit', () => rmSync(dir, { recursive: true, force: true }));
  const postgres = postgresAdminUrl();
  log('Compiling Tessera (npm run build): the bench runs it as production does, node dist/main.js...');
  buildCompiled();
  log(`Building the databases in ${dir}...`);
  // One "today" for every main database: the demo's sessions and bookings, and the write mix's sessions.
  const today = new Date();
  const mainDb = join(dir, 'main.sqlite');
  const world = await buildMainDatabase(mainDb, today);
  const scalingDb = join(dir, 'scaling.sqlite');
  const scalingWorld = await buildScalingDatabase(scalingDb, SCALING_REVIEWS, CANCEL_SIZES, CANCEL_SIZES.length * (CANCEL_REPETITIONS + 1));
  // The main database again, built the same way, dropped at the end or, on any other way out, by the
  // 'exit' handler createBenchDatabase sets.
  const postgresDatabase = 'url' in postgres ? await createBenchDatabase(postgres.url) : undefined;
  if (postgresDatabase) {
    log(`  and PostgreSQL database ${postgresDatabase.name} (${describeUrl(postgresDatabase.url)}), with the main one's data...`);
    await buildMainDatabase(postgresDatabase.url, today);
  }
  log(`  done in ${Math.round((Date.now() - started) / 1000)} s`);

  log('Starting Tessera, the peers and the bare server; checking that their answers agree...');
  const { servers, answers } = await startServers(dir, mainDb);
  const rssAtStartMb = rssMb(servers.tessera.pid);
  const rss = sampleRss(servers.tessera.pid);
  const summaries = await timeTargets(servers, answers, world, settings, log);
  rss.stop();
  await Promise.all(Object.values(servers).map((s) => s.stop()));

  log(`Scaling: ${SCALING_REVIEWS} reviews, cancel requests of ${CANCEL_SIZES.join(' and ')} items...`);
  // Without the response cache: from the second request on, it would answer the same page or experience itself.
  const scalingServer = await startTessera('Tessera (scaling)', scalingDb, { RESPONSE_CACHE_MAX_BYTES: '0' });
  const scaling = await measureScaling(scalingServer, scalingWorld).finally(() => scalingServer.stop());

  log(`Live: ${FAN_OUT} subscribers of one session, then ${IDLE} idle, on a Tessera of their own...`);
  const liveServer = await startTessera('Tessera (live)', mainDb, liveEnv);
  const live = await measureLive(liveServer, world, settings.roundSeconds, log).finally(() => liveServer.stop());

  let postgresPhases: PostgresPhase[] | undefined;
  if (postgresDatabase && 'url' in postgres) {
    log('PostgreSQL: T1u, T3u, T5 and T6 with one gateway (PG1), then two on the same database (PG2)...');
    const probe = await probeDatabase(postgres.url, postgresDatabase.name);
    postgresPhases = await timePostgres({
      databaseUrl: postgresDatabase.url,
      probe,
      answers,
      world,
      settings,
      encryptionKey: randomBytes(32).toString('base64'),
      log,
    }).finally(() => probe.close());
    await postgresDatabase.drop();
  }

  const results = checks(summaries, rss.maxMb(), scaling);
  const postgresReport = postgresPhases
    ? formatPostgresReport(postgresPhases, summaries, settings, describeUrl(postgresDatabase!.url))
    : `PostgreSQL rows skipped: ${'skipped' in postgres ? postgres.skipped : 'no database'}`;
  log(
    `\n${formatReport(summaries, results, scaling, settings)}\nTessera RSS: ${rssAtStartMb.toFixed(0)} MB once started, ${rss.maxMb().toFixed(0)} MB at most\n\n${formatLiveReport(live)}\n\n${postgresReport}\n`,
  );
  const seconds = Math.round((Date.now() - started) / 1000);
  const memory = { rssAtStartMb, maxRssMb: rss.maxMb() };
  writeJson(RESULTS, {
    date: new Date().toISOString(),
    seconds,
    machine: machine(),
    settings,
    targets: summaries,
    memory,
    scaling,
    live,
    checks: results,
    postgres: postgresPhases ? { database: describeUrl(postgresDatabase!.url), phases: postgresPhases } : { skipped: postgresReport },
  });
  log(`Written to ${RESULTS} (${seconds} s in all).`);
  if (postgresPhases && postgresFailed(postgresPhases)) throw new Error('a PostgreSQL run failed (above)');
}

main().catch((error: unknown) => {
  process.stderr.write(`\nbench failed: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
  // The 'exit' handler kills whatever server is still running.
  process.exit();
});
