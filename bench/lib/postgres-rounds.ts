/**
 * The PostgreSQL rows: T1u, T3u, T5 and T6 against Tessera on PostgreSQL, first one gateway (PG1-*),
 * then two gateways on the same database with the load split between them (PG2-*: half the
 * connections to each, every write-mix request to the next gateway in turn). Each phase starts its
 * gateways, checks that each answers the timed requests with the SQLite Tessera's bytes, warms up,
 * runs its rounds, stops the gateways and then reads the database's transaction counts (exact once
 * their connections have closed). Each run notes the CPU of the gateways, of the database's backends
 * (when the server runs on this machine), of the load generator and of everything else, and the RSS
 * of each gateway.
 */
import type { WriteMixWorld } from './data.ts';
import { keyOrderDifferences, requireSameAnswers } from './compare.ts';
import { LoadError, measure, type Measurement } from './load.ts';
import { backendCpuBetween, type DatabaseProbe, type TransactionCounts } from './postgres.ts';
import { cpuSeconds, machineBusySeconds, rssMb, sampleRss } from './proc.ts';
import type { Server } from './processes.ts';
import { fixed, row, summarize, type RoundResult, type Settings, type TargetSummary } from './report.ts';
import { send, type Answer } from './requests.ts';
import { startTessera } from './servers.ts';
import { targets, type Target } from './targets.ts';
import { bookingsInTurn, measureWriteMix } from './write-mix.ts';

/** The SQLite targets that have PostgreSQL rows. */
export const POSTGRES_TARGETS = ['T1u', 'T3u', 'T5', 'T6'];
/** DATABASE_POOL_SIZE of each gateway: the default. */
export const POSTGRES_POOL_SIZE = 10;

export interface PostgresRoundResult extends RoundResult {
  /** CPU of the database's backends, in % of one core; null when the server is not on this machine. */
  databaseCpuPercent: number | null;
  /** Each gateway's highest RSS during the run (serverRssMb is the highest of them). */
  gatewayRssMb: number[];
}

export interface PostgresSummary extends TargetSummary {
  /** The SQLite target it runs. */
  of: string;
  gateways: number;
  databaseCpuPercent: number | null;
  /** Each gateway's highest RSS over the rounds. */
  gatewayRssMb: number[];
  rounds: PostgresRoundResult[];
  /**
   * Why a run failed (an error answered, a wrong body): the target is not run again in the phase, and
   * its figures are those of the rounds before (zeros if none).
   */
  failure?: string;
}

export interface PostgresPhase {
  name: string;
  gateways: number;
  /** Each gateway's RSS once started, before any load. */
  rssAtStartMb: number[];
  /** Requests sent in the phase, warm-up included (a write-mix booking is four). */
  requests: number;
  /** What pg_stat_database counted over the phase, warm-up and answer checks included. */
  transactions: TransactionCounts;
  /** PG1 only: PostgreSQL transactions one request of each target costs (a T6 booking: its four requests), see countPerRequest. */
  perRequest?: Record<string, number>;
  /** How the gateways' answers compared with the SQLite Tessera's. */
  answers: Array<Omit<PostgresAnswer, 'body'>>;
  targets: PostgresSummary[];
}

interface PhaseContext {
  databaseUrl: string;
  probe: DatabaseProbe;
  /** The SQLite Tessera's answers, by target name: the bytes every PostgreSQL answer must carry. */
  answers: Map<string, Answer>;
  world: WriteMixWorld;
  settings: Settings;
  /** One key for all the gateways of the database: what one encrypts, another must read. */
  encryptionKey: string;
  log: (line: string) => void;
}

const baseTargets = (): Target[] => POSTGRES_TARGETS.map((name) => targets.find((t) => t.name === name)!);

/** What a PostgreSQL gateway answered to a timed request: the bytes its load is checked against. */
export interface PostgresAnswer {
  target: string;
  body: Buffer;
  /** Byte for byte the SQLite Tessera's answer. */
  sameBytes: boolean;
  /** When not: the objects whose keys come in another order (the data being the same). */
  keyOrder: string[];
}

/**
 * The gateways must answer each timed request with the same bytes as each other, and with the SQLite
 * Tessera's bytes (the same rule, and the same messages, as between the SQLite servers), or else with
 * the same JSON data in which only the order of some object's keys differs: that difference is
 * reported, and the gateways' own bytes are what their load is checked against. Anything else fails.
 */
async function checkAnswers(phase: string, gateways: Server[], answers: Map<string, Answer>): Promise<Map<string, PostgresAnswer>> {
  const checked = new Map<string, PostgresAnswer>();
  for (const target of baseTargets().filter((t) => t.request)) {
    const what = `${phase}-${target.name}`;
    const theirs = await Promise.all(gateways.map((g) => send(g.url, target.request!)));
    requireSameAnswers(
      what,
      theirs.map((answer, i) => ({ server: `${phase} gateway ${i + 1}`, answer })),
    );
    const sqlite = { server: `${target.name} (SQLite)`, answer: answers.get(target.name)! };
    const postgres = { server: `${phase} gateway 1`, answer: theirs[0]! };
    try {
      requireSameAnswers(what, [sqlite, postgres]);
      checked.set(target.name, { target: what, body: postgres.answer.body, sameBytes: true, keyOrder: [] });
    } catch (error) {
      const sameKind = sqlite.answer.status === postgres.answer.status && sqlite.answer.contentType === postgres.answer.contentType;
      const keyOrder = sameKind
        ? keyOrderDifferences(JSON.parse(sqlite.answer.body.toString('utf8')), JSON.parse(postgres.answer.body.toString('utf8')))
        : null;
      if (keyOrder === null || keyOrder.length === 0) throw error;
      checked.set(target.name, { target: what, body: postgres.answer.body, sameBytes: false, keyOrder });
    }
  }
  return checked;
}

async function runOn(
  gateways: Server[],
  target: Target,
  expected: Map<string, PostgresAnswer>,
  context: PhaseContext,
  seconds: number,
  runName: string,
): Promise<PostgresRoundResult> {
  const urls = gateways.map((g) => g.url);
  const gatewaysCpu = () => gateways.reduce((sum, g) => sum + cpuSeconds(g.pid), 0);
  const databaseBefore = await context.probe.backendCpu();
  const gatewaysBefore = gatewaysCpu();
  const clientBefore = process.cpuUsage();
  const machineBefore = machineBusySeconds();
  const rss = gateways.map((g) => sampleRss(g.pid));
  const start = performance.now();
  const result: Measurement = await (
    target.request
      ? measure(runName, urls, target.request, expected.get(target.name)!.body, seconds)
      : measureWriteMix(urls, context.world, seconds)
  ).finally(() => rss.forEach((r) => r.stop()));
  const wall = (performance.now() - start) / 1000;
  const machine = machineBusySeconds() - machineBefore;
  const clientUsage = process.cpuUsage(clientBefore);
  const gatewaySeconds = gatewaysCpu() - gatewaysBefore;
  const databaseSeconds = context.probe.local ? backendCpuBetween(databaseBefore, await context.probe.backendCpu()) : null;
  const clientSeconds = (clientUsage.user + clientUsage.system) / 1e6;
  const percent = (s: number) => Math.max(0, (s / wall) * 100);
  const gatewayRssMb = rss.map((r) => r.maxMb());
  return {
    ...result,
    serverCpuPercent: percent(gatewaySeconds),
    clientCpuPercent: percent(clientSeconds),
    databaseCpuPercent: databaseSeconds === null ? null : percent(databaseSeconds),
    otherCpuPercent: percent(machine - gatewaySeconds - clientSeconds - (databaseSeconds ?? 0)),
    serverRssMb: Math.max(...gatewayRssMb),
    gatewayRssMb,
  };
}

function summarizePhase(
  name: string,
  gateways: number,
  rounds: Map<string, PostgresRoundResult[]>,
  failures: Map<string, string>,
): PostgresSummary[] {
  return baseTargets().map((base) => {
    const results = rounds.get(base.name)!;
    const target = {
      ...base,
      name: `${name}-${base.name}`,
      what: `${base.what}, PostgreSQL, ${gateways} gateway${gateways > 1 ? 's' : ''}`,
    };
    const failure = failures.get(base.name);
    const common = { of: base.name, gateways, rounds: results, ...(failure ? { failure } : {}) };
    if (results.length === 0) {
      const zero = {
        perSecond: 0,
        p50Ms: 0,
        p99Ms: 0,
        serverCpuPercent: 0,
        clientCpuPercent: 0,
        otherCpuPercent: 0,
        serverRssMb: 0,
        non2xx: 0,
      };
      return { name: target.name, what: target.what, unit: target.unit, ...zero, ...common, databaseCpuPercent: null, gatewayRssMb: [] };
    }
    const summary = summarize(target, results);
    const median = results.find((r) => r.requestsPerSecond === summary.perSecond)!;
    return {
      ...summary,
      ...common,
      databaseCpuPercent: median.databaseCpuPercent,
      gatewayRssMb: results[0]!.gatewayRssMb.map((_, i) => Math.max(...results.map((r) => r.gatewayRssMb[i]!))),
    };
  });
}

const gatewayEnv = (context: PhaseContext) => ({
  ENCRYPTION_KEY: context.encryptionKey,
  DATABASE_POOL_SIZE: String(POSTGRES_POOL_SIZE),
  // T1u and T3u are the uncached rows; T5 and T6 are mutations, which the response cache never holds.
  RESPONSE_CACHE_MAX_BYTES: '0',
});

/** Requests (T6: bookings) counted per target, after the warm-up every gateway life gets. */
const COUNTED = { request: 200, booking: 25, warmUp: 5 };
/** Each counting gateway runs this long (or until its work ends) before it stops, so its background jobs run as long in each life. */
const GATEWAY_LIFE_MS = 8_000;

/**
 * PostgreSQL transactions one request of each target costs, as PostgreSQL counts them (pg_stat_database,
 * exact once a gateway's connections have closed). Each target gets a gateway life of its own: started,
 * warmed up with a few requests of every target, then COUNTED requests of the target one after the
 * other, then idle until GATEWAY_LIFE_MS, then stopped. A life with the warm-up alone is the baseline
 * (starting, the warm-up, the background jobs); what a target's life counted beyond it, divided by its
 * requests, is the figure. Sequential requests: what a request costs, not what concurrency adds (rollbacks
 * are counted in the phases). PostgreSQL also counts a transaction of the listening connection's server
 * process each time it is handed notifications (it reads the queue in one): about one per writing commit,
 * 4.3 a T6 booking in a count made like this one, with 13.9 of the gateway's own (statements' BEGIN ...
 * COMMIT or autocommit) and 0.4 of the webhook dispatcher waking on the events hint.
 */
async function countPerRequest(context: PhaseContext): Promise<Record<string, number>> {
  let bookings = 0;
  const life = async (work: (url: string) => Promise<void>): Promise<number> => {
    const before = await context.probe.transactions();
    const gateway = await startTessera('Tessera on PostgreSQL (counting)', context.databaseUrl, gatewayEnv(context));
    const started = performance.now();
    try {
      for (const target of baseTargets()) {
        if (target.request) for (let i = 0; i < COUNTED.warmUp; i += 1) await send(gateway.url, target.request);
        else await bookingsInTurn(gateway.url, context.world, COUNTED.warmUp, (bookings += COUNTED.warmUp));
      }
      await work(gateway.url);
      const left = GATEWAY_LIFE_MS - (performance.now() - started);
      if (left > 0) await new Promise((resolve) => setTimeout(resolve, left));
    } finally {
      await gateway.stop();
    }
    await context.probe.disconnected();
    return (await context.probe.transactions()).committed - before.committed;
  };
  const baseline = await life(async () => {});
  const counts: Record<string, number> = {};
  for (const target of baseTargets()) {
    const n = target.request ? COUNTED.request : COUNTED.booking;
    const counted = await life(async (url) => {
      if (target.request) for (let i = 0; i < n; i += 1) await send(url, target.request);
      else await bookingsInTurn(url, context.world, n, (bookings += n));
    });
    counts[target.name] = (counted - baseline) / n;
  }
  return counts;
}

/** One phase: `count` gateways on the database, every PostgreSQL target warmed up and timed. */
async function timePhase(name: string, count: number, context: PhaseContext): Promise<PostgresPhase> {
  const { settings, log } = context;
  const before = await context.probe.transactions();
  const gateways = await Promise.all(
    Array.from({ length: count }, (_, i) =>
      startTessera(`Tessera on PostgreSQL (${name}, gateway ${i + 1})`, context.databaseUrl, gatewayEnv(context)),
    ),
  );
  let requests = 0;
  let summaries: PostgresSummary[];
  let answers: PostgresPhase['answers'];
  const failures = new Map<string, string>();
  const rssAtStartMb = gateways.map((g) => rssMb(g.pid));
  try {
    const expected = await checkAnswers(name, gateways, context.answers);
    answers = [...expected.values()].map(({ target, sameBytes, keyOrder }) => ({ target, sameBytes, keyOrder }));
    for (const answer of answers) log(answerLine(answer));
    log(`${name}: warming up (${settings.warmUpSeconds} s per target)...`);
    // A failed run is noted and the other targets go on, so that the figures of the rest are not lost
    // (the bench still exits non-zero); any other error ends the bench.
    const run = async (target: Target, seconds: number): Promise<PostgresRoundResult | null> => {
      if (failures.has(target.name)) return null;
      try {
        const result = await runOn(gateways, target, expected, context, seconds, `${name}-${target.name}`);
        requests += result.requests;
        return result;
      } catch (error) {
        if (!(error instanceof LoadError)) throw error;
        failures.set(target.name, error.message.trim());
        log(`${name}-${target.name} FAILED: ${error.message.trim()}`);
        return null;
      }
    };
    for (const target of baseTargets()) await run(target, settings.warmUpSeconds);
    const rounds = new Map<string, PostgresRoundResult[]>(baseTargets().map((t) => [t.name, []]));
    for (let round = 1; round <= settings.rounds; round += 1) {
      const line: string[] = [];
      for (const target of baseTargets()) {
        const result = await run(target, settings.roundSeconds);
        if (result) rounds.get(target.name)!.push(result);
        line.push(`${name}-${target.name} ${result ? result.requestsPerSecond.toFixed(0) : 'failed'}`);
      }
      log(`${name} round ${round}/${settings.rounds}: ${line.join(', ')}`);
    }
    summaries = summarizePhase(name, count, rounds, failures);
  } finally {
    await Promise.all(gateways.map((g) => g.stop()));
  }
  await context.probe.disconnected();
  const after = await context.probe.transactions();
  const transactions = {
    committed: after.committed - before.committed,
    rolledBack: after.rolledBack - before.rolledBack,
    deadlocks: after.deadlocks - before.deadlocks,
  };
  return { name, gateways: count, rssAtStartMb, requests, transactions, answers, targets: summaries };
}

const answerLine = ({ target, sameBytes, keyOrder }: Omit<PostgresAnswer, 'body'>) =>
  sameBytes
    ? `${target}: the same bytes as SQLite`
    : `${target}: the same JSON data as SQLite, but keys in another order in ${keyOrder.join('; ')}`;

/** PG1, then PG2, on the database at `databaseUrl` (already holding the main world: lib/data.ts). */
export async function timePostgres(context: PhaseContext): Promise<PostgresPhase[]> {
  const phases: PostgresPhase[] = [];
  for (const [name, count] of [
    ['PG1', 1],
    ['PG2', 2],
  ] as const)
    phases.push(await timePhase(name, count, context));
  context.log('PostgreSQL: transactions a request costs, counted target by target on one gateway...');
  phases[0]!.perRequest = await countPerRequest(context);
  return phases;
}

/** Whether a PostgreSQL run failed: the bench then exits non-zero, after its report. */
export const postgresFailed = (phases: PostgresPhase[]) => phases.some((p) => p.targets.some((t) => t.failure));

/** The PostgreSQL table, beside the SQLite rows it runs again, and each phase's transactions. */
export function formatPostgresReport(phases: PostgresPhase[], sqlite: TargetSummary[], settings: Settings, databaseUrl: string): string {
  const widths = [10, 12, 10, 8, 8, 8, 8, 8, 8, 8, 12, 0];
  const summaries = phases.flatMap((p) => p.targets);
  const percentOrDash = (p: number | null) => (p === null ? '-' : `${fixed(p, 0)}%`);
  const lines = [
    `PostgreSQL (${databaseUrl}; DATABASE_POOL_SIZE=${POSTGRES_POOL_SIZE} per gateway, response cache off; ${settings.rounds} rounds of ${settings.roundSeconds} s, medians):`,
    '',
    row(
      ['target', 'per second', 'unit', 'p50 ms', 'p99 ms', 'non-2xx', 'gateways', 'database', 'loadgen', 'others', 'RSS MB', '  what'],
      widths,
    ),
  ];
  for (const name of POSTGRES_TARGETS) {
    const base = sqlite.find((s) => s.name === name)!;
    lines.push(
      row(
        [
          base.name,
          fixed(base.perSecond),
          base.unit,
          fixed(base.p50Ms),
          fixed(base.p99Ms),
          String(base.non2xx),
          `${fixed(base.serverCpuPercent, 0)}%`,
          '-',
          `${fixed(base.clientCpuPercent, 0)}%`,
          `${fixed(base.otherCpuPercent, 0)}%`,
          fixed(base.serverRssMb, 0),
          '  SQLite, as above',
        ],
        widths,
      ),
    );
    for (const s of summaries.filter((summary) => summary.of === name)) {
      lines.push(
        row(
          [
            s.name,
            fixed(s.perSecond),
            s.unit,
            fixed(s.p50Ms),
            fixed(s.p99Ms),
            String(s.non2xx),
            `${fixed(s.serverCpuPercent, 0)}%`,
            percentOrDash(s.databaseCpuPercent),
            `${fixed(s.clientCpuPercent, 0)}%`,
            `${fixed(s.otherCpuPercent, 0)}%`,
            s.gatewayRssMb.map((mb) => fixed(mb, 0)).join(' + '),
            s.failure
              ? `  FAILED${s.rounds.length > 0 ? ` after ${s.rounds.length} round${s.rounds.length > 1 ? 's' : ''}` : ''} (below)`
              : `  ${fixed(s.perSecond / base.perSecond, 2)}x SQLite`,
          ],
          widths,
        ),
      );
    }
  }
  lines.push(
    "(CPU in % of one core: all the gateways together, the PostgreSQL backends serving the bench database, the load generator, everything else; RSS: each gateway's highest)",
  );
  for (const s of summaries.filter((summary) => summary.failure)) lines.push(`${s.name} FAILED: ${s.failure}`);
  for (const answer of phases.flatMap((p) => p.answers)) lines.push(answerLine(answer));
  for (const phase of phases) {
    const { committed, rolledBack, deadlocks } = phase.transactions;
    lines.push(
      `${phase.name}: RSS ${phase.rssAtStartMb.map((mb) => fixed(mb, 0)).join(' + ')} MB once started; ${phase.requests} requests in the runs that completed (warm-up included), ` +
        `${committed} transactions committed (${fixed(committed / Math.max(1, phase.requests), 2)} a request), ${rolledBack} rolled back (serialization failures, and any other rollback), ${deadlocks} deadlocks`,
    );
    if (phase.perRequest) {
      const each = Object.entries(phase.perRequest).map(([target, n]) => `${target} ${fixed(n, 1)}${target === 'T6' ? ' a booking' : ''}`);
      lines.push(`PostgreSQL transactions a request costs (sequential, one gateway, counted by PostgreSQL): ${each.join(', ')}`);
    }
  }
  return lines.join('\n');
}
