/**
 * Reads outside units of work share a few pooled connections ("lanes") instead of taking one each: the
 * pool's connections run in node-postgres' pipeline mode (unit-pipelining.ts), so a lane takes a read
 * without waiting for the answers to the reads before it, and everything the gateway sends a lane in one
 * turn of the event loop leaves in one write. On the same host, what a statement costs the gateway is
 * mostly that write (the `writev` that wakes the backend reading it, about 60 µs here): reads of many
 * requests in one write, answered by a backend that does not go to sleep between them, cost less on both
 * sides. Each read keeps its own Sync, so its own answer or error, as on a connection of its own.
 *
 * Only statements that read (own-writes.ts `statementKind`, conservative) take a lane: a write may wait for a
 * row lock, and a lane runs what it was sent in order, so the reads behind it would wait too. A lane takes at
 * most LANE_DEPTH reads at a time; past that on every lane, a read takes a pooled connection of its own when
 * the pool has one free, and otherwise goes to the least busy lane anyway, up to LANE_MOST. A read that finds
 * no lane to take it (each broken, stalled or at LANE_MOST) takes a pooled connection of its own, as before,
 * and waits for one as long as the pool lets it (DATABASE_CONNECT_TIMEOUT_MS, then a 503). A lane is
 * a pooled connection, counted in DATABASE_POOL_SIZE: it goes back to the pool once its last read has been
 * answered, and is dropped rather than given back when its connection failed.
 */
import pg from 'pg';
import { statementKind } from './own-writes.ts';

/**
 * Reads a lane takes in flight before a read goes to a connection of its own instead, when the pool has one
 * free (`#laneWithRoom`). 64, so a default pool's two lanes take the reads of 64 requests that each read two
 * things at once (an experience's questions and its reviews page): at 32, the reads past them each took a
 * connection of their own or waited in the pool's queue for one, and T3u on PostgreSQL did x1.27 fewer
 * requests a second (six alternating rounds, 2026-11-30). A read waits behind at most 63 others, fast ones (a
 * lane that answers nothing for LANE_STALL_MS takes no more), or behind LANE_MOST - 1 while the pool has none.
 */
export const LANE_DEPTH = 64;
/** Reads a lane has in flight at most while the pool has no connection free (see `#laneWithRoom`). */
export const LANE_MOST = 4 * LANE_DEPTH;
/**
 * A lane that has answered nothing for this long while it has reads in flight is running a slow one: it
 * takes no more reads (they would wait behind it), which go to another lane or a connection of their own.
 */
export const LANE_STALL_MS = 20;

type Stream = { cork(): void; uncork(): void };

interface Lane {
  /** The connection, once the pool has given it. */
  client: pg.PoolClient | undefined;
  connecting: Promise<pg.PoolClient>;
  inFlight: number;
  /** When it last answered a read, or took its first (performance.now()). */
  progressAt: number;
  /** Its writes are held until the end of this turn of the event loop. */
  corked: boolean;
  /** Its connection failed: it takes no more reads and goes back to the pool dropped. */
  broken: Error | undefined;
  onError: (error: Error) => void;
}

/** Whether a read's failure leaves its connection usable: an error the server answered for that read alone. */
const readAlone = (error: unknown): boolean => error instanceof pg.DatabaseError && !/^(08|57P)/.test(error.code ?? '');

/** The text of a query as node-postgres takes it (a string or a config object). */
function textOf(config: unknown): string | undefined {
  if (typeof config === 'string') return config;
  const text = (config as { text?: unknown } | null)?.text;
  return typeof text === 'string' ? text : undefined;
}

/** A pool whose reads outside units of work share lanes (`lanes` at most), the rest as pg.Pool does. */
export class LanePool extends pg.Pool {
  readonly #lanes: Lane[] = [];
  readonly #maxLanes: number;

  constructor(config: pg.PoolConfig & { lanes: number }) {
    super(config);
    this.#maxLanes = config.lanes;
  }

  override query(...args: unknown[]): never {
    const [config, values] = args;
    const callback = args.some((arg) => typeof arg === 'function');
    if (callback || this.#maxLanes === 0 || statementKind(textOf(config)) !== 'read') {
      return (super.query as (...a: unknown[]) => never)(...args);
    }
    const lane = this.#laneWithRoom();
    if (!lane) return (super.query as (...a: unknown[]) => never)(...args);
    return this.#read(lane, config, values) as never;
  }

  /**
   * The least busy lane that takes another read (not broken, not stalled, below LANE_DEPTH, or below
   * LANE_MOST while the pool has no connection free), or a new one while there are fewer than the most: a
   * lane per read until then, so their backends read in parallel.
   */
  #laneWithRoom(): Lane | undefined {
    const now = performance.now();
    if (this.#lanes.length < this.#maxLanes) return this.#openLane(now);
    let best: Lane | undefined;
    for (const lane of this.#lanes) {
      if (lane.broken || now - lane.progressAt > LANE_STALL_MS) continue;
      if (!best || lane.inFlight < best.inFlight) best = lane;
    }
    if (!best || best.inFlight < LANE_DEPTH) return best;
    // Every working lane has LANE_DEPTH. A connection of its own when the pool has one free now; else the
    // least busy lane still, which answers sooner than the pool's queue would give a connection, up to
    // LANE_MOST: past that the read waits in the pool's queue, whose timeout turns an overload into 503s.
    const poolFree = this.idleCount > 0 || this.totalCount < this.options.max!;
    return poolFree || best.inFlight >= LANE_MOST ? undefined : best;
  }

  #openLane(now: number): Lane {
    const lane: Lane = {
      client: undefined,
      connecting: this.connect(),
      inFlight: 0,
      progressAt: now,
      corked: false,
      broken: undefined,
      onError: (error) => (lane.broken ??= error),
    };
    lane.connecting.then(
      (client) => {
        lane.client = client;
        // The pool's connections have an 'error' listener of their own (client.ts); this one marks the lane.
        client.on('error', lane.onError);
      },
      (error: Error) => (lane.broken = error),
    );
    this.#lanes.push(lane);
    return lane;
  }

  async #read(lane: Lane, config: unknown, values: unknown): Promise<unknown> {
    lane.inFlight += 1;
    try {
      const client = lane.client ?? (await lane.connecting);
      if (!lane.corked) {
        // Everything sent on this lane in this turn goes in one write, at the turn's end.
        const stream = (client as unknown as { connection: { stream: Stream } }).connection.stream;
        stream.cork();
        lane.corked = true;
        setImmediate(() => {
          lane.corked = false;
          stream.uncork();
        });
      }
      const answer = await (client.query as (c: unknown, v: unknown) => Promise<unknown>)(config, values);
      lane.progressAt = performance.now();
      return answer;
    } catch (error) {
      lane.progressAt = performance.now();
      if (!readAlone(error)) lane.broken ??= error as Error;
      throw error;
    } finally {
      lane.inFlight -= 1;
      if (lane.inFlight === 0) this.#retire(lane);
    }
  }

  /** Gives the lane's connection back (dropped if it failed) once it has nothing in flight. */
  #retire(lane: Lane): void {
    const at = this.#lanes.indexOf(lane);
    if (at >= 0) this.#lanes.splice(at, 1);
    const client = lane.client;
    if (!client) return;
    lane.client = undefined;
    client.off('error', lane.onError);
    client.release(lane.broken);
  }
}
