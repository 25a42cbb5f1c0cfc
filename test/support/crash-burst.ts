/**
 * The crash tests' burst (test/api/operations/crash.test.ts on SQLite, test/postgres/crash.test.ts on
 * PostgreSQL): concurrent customers against a real server process until it is killed with SIGKILL at a
 * random moment mid-burst.
 */
import { expect } from 'vitest';
import { customerJourney, fetchSender, type Shop } from './booking-traffic.ts';
import type { ServerProcess } from './server-process.ts';

export const WORKERS = 12;

/**
 * Short holds, offers, webhook timeouts and refund reconciliation grace, so they lapse (and leases end)
 * within the test. The burst comes from one client with one key: rate limits (tested in
 * rate-limit.test.ts) are lifted.
 */
export const crashEnv = {
  HOLD_TTL_SECONDS: '2',
  WAITLIST_OFFER_TTL_SECONDS: '2',
  WEBHOOK_TIMEOUT_MS: '500',
  WEBHOOK_RETRY_BASE_SECONDS: '0.2',
  REFUND_RECONCILE_GRACE_SECONDS: '1',
  REFUND_RECONCILE_INTERVAL_MS: '200',
  RATE_LIMIT_PER_MINUTE: '1000000',
  RATE_LIMIT_ANONYMOUS_PER_MINUTE: '1000000',
  RATE_LIMIT_PUBLISHABLE_CLIENT_PER_MINUTE: '1000000',
  LOG_LEVEL: 'warn',
};

/**
 * A small seeded generator (mulberry32): a failure names its seed, and CRASH_SEED=<seed> runs the same
 * choices again (the interleaving of the concurrent customers still depends on timing).
 */
export function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/**
 * `WORKERS` customers at once, each followed by another, until the server dies under them: it is
 * killed a random 0 to 100 ms after a random number (25 to 44) of customers are done, so the kill lands
 * mid-burst however fast the machine is. Returns the tally of what the customers saw.
 */
export async function burstUntilKilled(srv: ServerProcess, shop: Shop, sessionTimes: string[], random: () => number) {
  const send = fetchSender(srv.url);
  const tally: Record<string, number> = {};
  let done = 0;
  let interrupted = 0;
  let sigkillSent = false;
  const killAfter = { journeys: 25 + Math.floor(random() * 20), ms: Math.floor(random() * 100) };
  let kill!: () => void;
  const killed = new Promise<void>((resolve) => {
    kill = () =>
      setTimeout(() => {
        sigkillSent = srv.child.kill('SIGKILL');
        resolve();
      }, killAfter.ms);
  });
  const worker = async () => {
    for (;;) {
      try {
        const outcome = await customerJourney(send, shop, sessionTimes, random);
        tally[outcome] = (tally[outcome] ?? 0) + 1;
        done += 1;
        if (done === killAfter.journeys) kill();
      } catch (error) {
        if (!sigkillSent) throw error; // not the crash: a bug
        interrupted += 1; // the connection died with the server
        return;
      }
    }
  };
  await Promise.all([killed, ...Array.from({ length: WORKERS }, worker)]);
  expect(await srv.exited).toEqual({ code: null, signal: 'SIGKILL' });
  return { tally, interrupted, killAfter };
}

/** Outcomes that mean the server failed a customer rather than refused them. */
export const serverErrors = (tally: Record<string, number>) =>
  Object.keys(tally).filter((outcome) => /\b5\d\d\b|_ERROR|UNAVAILABLE|PROCESSING|unknown|429/.test(outcome));
