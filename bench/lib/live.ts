/**
 * The live rows: what subscriptions cost a gateway and how fast a change reaches them, on a Tessera of
 * their own (compiled, production mode, the main SQLite database). Clients are real graphql-ws clients,
 * one WebSocket each, as browsers open them, subscribed to the write-mix experience's availability.
 *
 * - Fan-out: FAN_OUT subscribers of one session; a hold of one place is sent over HTTP, and the time is
 *   taken from sending it to the moment the last subscriber has the session's new `remaining` (an upper
 *   bound of commit-to-last-subscriber: it includes the checkout itself). Holds run one after the other.
 * - Memory, measured first, before any load has grown the gateway's heap: IDLE subscribers (one per
 *   connection); the gateway's resident memory with them connected, less before any, per subscriber.
 *   FAN_OUT of them stay connected for the fan-out, the others close.
 * - HTTP beside subscribers: T1 measured with FAN_OUT connected, then with none.
 */
import { createClient, type Client } from 'graphql-ws';
import WebSocket from 'ws';
import { LISBON, LISBON_KEY, type WriteMixWorld } from './data.ts';
import { measure, type Measurement } from './load.ts';
import { rssMb } from './proc.ts';
import { send } from './requests.ts';
import type { Server } from './processes.ts';
import { requests } from './targets.ts';
import { hold } from './write-mix.ts';

export const FAN_OUT = 1_000;
export const IDLE = 5_000;
const HOLDS = 20;
/** Connections opened at once while the bench connects its subscribers. */
const OPENING = 200;
/** How long a subscriber may wait for an update before the run fails. */
const UPDATE_TIMEOUT_MS = 10_000;
const SETTLE_MS = 3_000;

/**
 * The live Tessera's settings beside the bench's (tesseraEnv: rate limits at their cap, which connects
 * and subscribes spend from): the bench's one key may open every subscriber.
 */
export const liveEnv = { LIVE_MAX_CONNECTIONS_PER_KEY: String(IDLE) };

export interface LiveResult {
  subscribers: number;
  holds: number;
  /** From sending a hold to the last of FAN_OUT subscribers having its update: median and 99th percentile over the holds. */
  fanOutP50Ms: number;
  fanOutP99Ms: number;
  /** T1 with no subscriber, then with FAN_OUT connected. */
  httpWithout: Measurement;
  httpWith: Measurement;
  idleSubscribers: number;
  rssBeforeMb: number;
  rssWithIdleMb: number;
  kbPerIdleSubscriber: number;
}

const subscription = `subscription Places($brandId: UUID!, $experienceId: UUID!, $from: LocalDate!, $to: LocalDate!) {
  sessionAvailability(brandId: $brandId, experienceId: $experienceId, from: $from, to: $to) { uuid startDateTime remaining }
}`;

interface SessionPlaces {
  uuid: string;
  startDateTime: string;
  remaining: number;
}

/** One subscriber: the lowest `remaining` it has seen of the session, and who waits for it to fall to a value. */
class Subscriber {
  lowest = Number.POSITIVE_INFINITY;
  private waiting: { below: number; resolve: () => void } | null = null;
  constructor(
    readonly client: Client,
    private readonly startDateTime: string,
  ) {}

  seen(sessions: SessionPlaces[]) {
    const mine = sessions.find((s) => s.startDateTime.startsWith(this.startDateTime));
    if (!mine) return;
    this.lowest = Math.min(this.lowest, mine.remaining);
    if (this.waiting && this.lowest <= this.waiting.below) {
      this.waiting.resolve();
      this.waiting = null;
    }
  }

  /** Resolves once `remaining` is at most `value`. */
  reach(value: number): Promise<void> {
    if (this.lowest <= value) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`a subscriber saw no update to ${value} places within ${UPDATE_TIMEOUT_MS} ms`)),
        UPDATE_TIMEOUT_MS,
      );
      this.waiting = {
        below: value,
        resolve: () => {
          clearTimeout(timer);
          resolve();
        },
      };
    });
  }
}

function subscribe(server: Server, world: WriteMixWorld, sessionTime: string, failures: Error[]): Subscriber {
  const client = createClient({
    url: server.url.replace(/^http/, 'ws') + '/graphql',
    webSocketImpl: WebSocket,
    connectionParams: { authorization: `Bearer ${LISBON_KEY}` },
    lazy: false,
    retryAttempts: 0,
    onNonLazyError: (error) => failures.push(error instanceof Error ? error : new Error(String(error))),
  });
  const subscriber = new Subscriber(client, sessionTime);
  const date = sessionTime.slice(0, 10);
  client.subscribe<{ sessionAvailability: SessionPlaces[] | null }>(
    { query: subscription, variables: { brandId: LISBON, experienceId: world.experienceId, from: date, to: date } },
    {
      next: (result) => {
        if (result.errors) failures.push(new Error(`subscription: ${JSON.stringify(result.errors)}`));
        if (result.data?.sessionAvailability) subscriber.seen(result.data.sessionAvailability);
      },
      error: (error) => failures.push(new Error(`subscription: ${error instanceof Error ? error.message : JSON.stringify(error)}`)),
      complete: () => {},
    },
  );
  return subscriber;
}

async function openSubscribers(server: Server, world: WriteMixWorld, sessionTime: string, count: number, failures: Error[]) {
  const subscribers: Subscriber[] = [];
  while (subscribers.length < count) {
    const batch = Array.from({ length: Math.min(OPENING, count - subscribers.length) }, () =>
      subscribe(server, world, sessionTime, failures),
    );
    // Each batch connected before the next opens: connection_ack received.
    await Promise.all(batch.map((s) => new Promise<void>((resolve) => s.client.on('connected', () => resolve()))));
    subscribers.push(...batch);
    if (failures.length > 0) throw failures[0]!;
  }
  return subscribers;
}

/** Holds one place and waits until every subscriber has seen it; the time from sending the hold to the last. */
async function timedHold(server: Server, world: WriteMixWorld, sessionTime: string, subscribers: Subscriber[], failures: Error[]) {
  const start = performance.now();
  let last = 0;
  const { cart } = await hold(server.url, world, sessionTime, ['Live']);
  const remaining = cart.bookings[0]!.session.remaining;
  await Promise.all(subscribers.map((s) => s.reach(remaining).then(() => (last = Math.max(last, performance.now() - start)))));
  if (failures.length > 0) throw failures[0]!;
  return last;
}

const closeAll = (subscribers: Subscriber[]) => Promise.all(subscribers.map(async (s) => s.client.dispose()));
const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;
const settle = () => new Promise((resolve) => setTimeout(resolve, SETTLE_MS));

export async function measureLive(server: Server, world: WriteMixWorld, seconds: number, log: (line: string) => void): Promise<LiveResult> {
  const sessionTime = world.sessionTimes[0]!;
  const failures: Error[] = [];
  const expected = (await send(server.url, requests.featuredGraphql)).body;
  // Memory first, on a gateway no load has run on yet: after a load, V8 keeps the heap that load grew
  // (see docs/performance.md, memory), and subscribers opened then fit in it, so the difference in RSS
  // would measure the load's garbage, not the subscribers.
  await settle();
  const rssBeforeMb = rssMb(server.pid);
  log(`  ${IDLE} idle subscribers...`);
  const subscribers = await openSubscribers(server, world, sessionTime, IDLE, failures);
  try {
    // One hold every subscriber sees proves each subscription registered (and costs what an update costs).
    await timedHold(server, world, sessionTime, subscribers, failures);
    await settle();
    const rssWithIdleMb = rssMb(server.pid);
    await closeAll(subscribers.splice(FAN_OUT));
    // The closes handled before the holds are timed; the first hold, untimed, on FAN_OUT alone.
    await settle();
    await timedHold(server, world, sessionTime, subscribers, failures);

    log(`  ${FAN_OUT} subscribers of one session, ${HOLDS} holds...`);
    const times: number[] = [];
    for (let i = 0; i < HOLDS; i += 1) times.push(await timedHold(server, world, sessionTime, subscribers, failures));
    times.sort((a, b) => a - b);
    log(`  T1 with ${FAN_OUT} subscribers connected, then with none...`);
    await measure('T1 (warm-up)', server.url, requests.featuredGraphql, expected, 2);
    const httpWith = await measure(`T1, ${FAN_OUT} subscribers`, server.url, requests.featuredGraphql, expected, seconds);
    await closeAll(subscribers.splice(0));
    await settle();
    const httpWithout = await measure('T1, no subscriber', server.url, requests.featuredGraphql, expected, seconds);
    return {
      subscribers: FAN_OUT,
      holds: HOLDS,
      fanOutP50Ms: percentile(times, 50),
      fanOutP99Ms: percentile(times, 99),
      httpWithout,
      httpWith,
      idleSubscribers: IDLE,
      rssBeforeMb,
      rssWithIdleMb,
      kbPerIdleSubscriber: ((rssWithIdleMb - rssBeforeMb) * 1024) / IDLE,
    };
  } finally {
    await closeAll(subscribers);
  }
}

export function formatLiveReport(live: LiveResult): string {
  const rate = (m: Measurement) => `${m.requestsPerSecond.toFixed(0)} req/s (p99 ${m.p99Ms} ms)`;
  return [
    `Live (graphql-ws, one WebSocket per subscriber, SQLite):`,
    `  fan-out to ${live.subscribers} subscribers of one session, from sending a hold to the last update: p50 ${live.fanOutP50Ms.toFixed(0)} ms, p99 ${live.fanOutP99Ms.toFixed(0)} ms over ${live.holds} holds (goal: p99 under 250 ms)`,
    `  T1 with no subscriber ${rate(live.httpWithout)}; with ${live.subscribers} connected ${rate(live.httpWith)}`,
    `  ${live.idleSubscribers} idle subscribers: RSS ${live.rssBeforeMb.toFixed(0)} -> ${live.rssWithIdleMb.toFixed(0)} MB, ${live.kbPerIdleSubscriber.toFixed(1)} KB each (goal: at most 20 KB)`,
  ].join('\n');
}
