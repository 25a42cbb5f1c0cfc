/**
 * Graceful shutdown. The first SIGTERM or SIGINT begins it. First the drain window
 * (SHUTDOWN_DRAIN_MS): readiness fails at once (`GET /readyz` answers 503), so load balancers stop
 * sending new requests, while the listener still accepts and serves whatever arrives meanwhile: no
 * client meets a refused connection while the balancers catch up. Then `close` drains: it stops taking
 * connections and starting webhook deliveries, lets the requests in flight finish (Fastify's `close`
 * waits for them; its onClose hooks then stop the hold sweeper and wait for the deliveries in flight),
 * closes the database, and the process exits 0. A second signal exits at once, in the window or after
 * it; so does the timeout (SHUTDOWN_TIMEOUT_MS, counted from the window's end), with a log line and a
 * non-zero code. Either way nothing committed is lost: every write is one transaction, so no signal
 * handler ever runs in the middle of one, and work cut short is picked up from the database by the next
 * process (holds, offers, webhook deliveries).
 */
import { constants } from 'node:os';

export interface ShutdownDeps {
  /** Makes readiness fail; called at the first signal. */
  stopReadiness?(): void;
  /** How long requests are still served after readiness fails, before `close` (SHUTDOWN_DRAIN_MS; 0: close at once). */
  drainWindowMs?: number;
  /** Drains and closes everything; resolves when the process may exit cleanly. */
  close(): Promise<void>;
  /** How long the drain may take, from the window's end, before the process exits anyway (exit code 1). */
  timeoutMs: number;
  log: { info(details: object, message: string): void; error(details: object, message: string): void };
  /** `process.exit` unless a test replaces it. */
  exit?: (code: number) => void;
}

/** Exit code of a process ended by `signal` (128 + its number), as shells report it. */
export const signalExitCode = (signal: NodeJS.Signals) => 128 + (constants.signals[signal] ?? 0);

/** Installs the handlers; returns the function they call, so a test can drive it without a signal. */
export function exitOnSignals(
  deps: ShutdownDeps,
  signals: readonly NodeJS.Signals[] = ['SIGTERM', 'SIGINT'],
): (signal: NodeJS.Signals) => void {
  const exit = deps.exit ?? ((code: number) => process.exit(code));
  let draining = false;
  const drain = (signal: NodeJS.Signals) => {
    const started = Date.now();
    deps.log.info({ signal, timeoutMs: deps.timeoutMs }, 'shutting down: draining in-flight requests and webhook deliveries');
    // Referenced on purpose: it must fire even if nothing else keeps the event loop alive.
    const timer = setTimeout(() => {
      deps.log.error(
        { signal, timeoutMs: deps.timeoutMs },
        `shutdown did not finish within SHUTDOWN_TIMEOUT_MS (${deps.timeoutMs} ms): exiting`,
      );
      exit(1);
    }, deps.timeoutMs);
    deps.close().then(
      () => {
        clearTimeout(timer);
        deps.log.info({ durationMs: Date.now() - started }, 'shut down cleanly');
        exit(0);
      },
      (error: unknown) => {
        clearTimeout(timer);
        deps.log.error({ err: error }, 'shutdown failed');
        exit(1);
      },
    );
  };
  const onSignal = (signal: NodeJS.Signals) => {
    if (draining) {
      deps.log.error({ signal }, 'second signal while shutting down: exiting without waiting for in-flight work');
      exit(signalExitCode(signal));
      return;
    }
    draining = true;
    deps.stopReadiness?.();
    const windowMs = deps.drainWindowMs ?? 0;
    if (windowMs === 0) return drain(signal);
    deps.log.info(
      { signal, drainWindowMs: windowMs },
      `shutting down: /readyz answers 503; still serving for SHUTDOWN_DRAIN_MS (${windowMs} ms) while load balancers stop sending`,
    );
    // Referenced, as the timeout is: the window ends even if nothing else keeps the event loop alive.
    setTimeout(() => drain(signal), windowMs);
  };
  for (const signal of signals) process.on(signal, onSignal);
  return onSignal;
}
