/**
 * Readiness as `GET /readyz` answers it: whether this gateway should be sent traffic now. Not ready
 * once shutdown has begun (at once, without asking the database), or while the database does not take
 * a committed write within READINESS_TIMEOUT_MS (down, read-only, full, the heartbeat row or the write
 * queue stuck behind another unit of work), or lacks this build's migrations.
 *
 * One check runs at a time and its answer is kept READINESS_CACHE_MS, so frequent probes from several
 * load balancers cost the database one small write per period. A caller waits for the running check at
 * most READINESS_TIMEOUT_MS from its own arrival and then answers "stalled"; the check is not started
 * again while the stuck one waits, so a stalled database never piles up probes.
 */
import type { FastifyInstance } from 'fastify';
import { readiness, type NotReadyReason, type Readiness } from '../domain/operations/operations.ts';
import type { Database } from '../domain/shared/database.ts';

export const readinessDefaults = { timeoutMs: 2_000, cacheMs: 1_000 } as const;

export interface ReadinessSettings {
  /** How long a check may take before readiness answers "stalled" (READINESS_TIMEOUT_MS). */
  timeoutMs: number;
  /** How long a finished check's answer is reused (READINESS_CACHE_MS); 0 checks on every call. */
  cacheMs: number;
}

export type ReadinessState =
  | { ready: true }
  | { ready: false; reason: NotReadyReason | 'database writes stalled' | 'write queue saturated' | 'shutting down'; error?: unknown };

declare module 'fastify' {
  interface FastifyInstance {
    /** This gateway's readiness; `src/main.ts` turns it off when a shutdown signal arrives. */
    readiness: ReadinessProbe;
  }
}

export class ReadinessProbe {
  #shuttingDown = false;
  #writesSaturated: () => boolean = () => false;
  #running: { answer: Promise<Readiness>; written: boolean } | undefined;
  #last: { state: Readiness; at: number } | undefined;

  constructor(
    private readonly db: Database,
    private readonly settings: ReadinessSettings,
  ) {}

  /** From now on not ready: load balancers stop sending new requests while this gateway still serves. */
  shutDown(): void {
    this.#shuttingDown = true;
  }

  /** Where this gateway says it takes no more writes (WRITE_QUEUE_LIMIT in flight): not ready meanwhile. */
  watchWriteAdmission(saturated: () => boolean): void {
    this.#writesSaturated = saturated;
  }

  get shuttingDown(): boolean {
    return this.#shuttingDown;
  }

  /** The current state; never throws, and answers within about READINESS_TIMEOUT_MS. */
  async check(): Promise<ReadinessState> {
    if (this.#shuttingDown) return { ready: false, reason: 'shutting down' };
    // Sent elsewhere while it sheds writes; back at once when one finishes (not cached).
    if (this.#writesSaturated()) return { ready: false, reason: 'write queue saturated' };
    if (this.#last !== undefined && Date.now() - this.#last.at < this.settings.cacheMs) return this.#last.state;
    const running = this.#running ?? this.#start();
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<undefined>((resolve) => {
      timer = setTimeout(() => resolve(undefined), this.settings.timeoutMs).unref();
    });
    const state = await Promise.race([running.answer, timedOut]);
    clearTimeout(timer);
    if (state !== undefined) return state;
    const error = new Error(`The readiness check did not finish within READINESS_TIMEOUT_MS (${this.settings.timeoutMs} ms)`);
    // A write that committed leaves only the reads, which a database that answers does at once.
    return { ready: false, reason: running.written ? 'database unavailable' : 'database writes stalled', error };
  }

  #start(): { answer: Promise<Readiness>; written: boolean } {
    const running = { written: false, answer: Promise.resolve<Readiness>({ ready: true }) };
    running.answer = readiness(this.db, new Date(), () => {
      running.written = true;
    }).then((state) => {
      this.#running = undefined;
      this.#last = { state, at: Date.now() };
      return state;
    });
    this.#running = running;
    return running;
  }
}

/**
 * The probe, as `app.readiness`. While shutting down, answers carry `Connection: close`: clients and
 * load balancers open their next connection elsewhere (or here, while the listener still accepts),
 * instead of keeping an idle one that the close would cut as they reuse it.
 */
export function installReadiness(app: FastifyInstance, probe: ReadinessProbe): void {
  app.decorate('readiness', probe);
  app.addHook('onSend', async (_request, reply, payload) => {
    if (probe.shuttingDown) reply.header('connection', 'close');
    return payload;
  });
}
