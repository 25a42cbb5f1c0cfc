/**
 * The one connection each gateway LISTENs on, for every channel it hears (the events hint, the data
 * version), kept outside the pool: it must stay open, and must not take a connection from the units'
 * budget. Opened when first asked for (`start`). The server ends it on a restart, a failover or
 * pg_terminate_backend; the network can also cut it silently (a partition: no FIN, no error, just no
 * more notifications), so a liveness check asks it a trivial question every `checkIntervalMs` and counts
 * it as lost when no answer comes within `checkTimeoutMs`. A lost connection is ended and opened again
 * after a pause that doubles up to a few seconds; once the new one listens, it ends the old one's server
 * process if the server still holds it (a silent cut leaves it there until TCP keepalives end it).
 *
 * While it listens (`listening`), every commit that notified one of its channels after LISTEN took effect
 * is delivered to it: the server delivers a transaction's notifications once it is visible, in commit order,
 * and one that queued them before LISTEN but commits after is delivered too (PostgreSQL's async.c starts a
 * new listener at the queue's tail, not its head). A check's answer comes after the notifications of every
 * commit before the check reached the server (they are sent before ReadyForQuery), so while checks succeed
 * none is late by more than one interval and timeout.
 */
import pg from 'pg';

export interface ListenerHandlers {
  /** A notification on `channel`. */
  notified(channel: string): void;
  /** LISTEN took effect on a new connection: notifications from here on arrive. */
  listening(): void;
  /** The connection stopped listening (ended, cut, failed a check, or closed): notifications may be missed. */
  deaf(): void;
}

export interface ListenerOptions {
  /** The first pause before opening the connection again; it doubles after each failure up to `maxPauseMs`. */
  minPauseMs?: number;
  maxPauseMs?: number;
  /** How often the connection is asked whether it is alive. */
  checkIntervalMs?: number;
  /** How long an answer may take before the connection counts as lost. */
  checkTimeoutMs?: number;
  /** Told about connections lost and failed attempts (the gateway goes on). */
  onTrouble?: (error: unknown) => void;
}

export const listenerDefaults = { minPauseMs: 100, maxPauseMs: 5_000, checkIntervalMs: 1_000, checkTimeoutMs: 1_000 } as const;

/** How the listening connection shows in pg_stat_activity, so operators can tell it from the pool's. */
export const LISTEN_APPLICATION_NAME = 'tessera:events';

/** The liveness check's statement, recognisable in statement logs. */
export const LIVENESS_CHECK = "SELECT 'tessera:listening'";

export interface Listener {
  /** Opens the connection, if not yet asked to. */
  start(): void;
  /** Whether LISTEN is in effect on a connection that answered its last check. */
  readonly listening: boolean;
  /** Ends the connection and stops reconnecting. */
  close(): Promise<void>;
}

export function listenOn(pool: pg.Pool, channels: readonly string[], handlers: ListenerHandlers, options: ListenerOptions = {}): Listener {
  const { minPauseMs, maxPauseMs, checkIntervalMs, checkTimeoutMs } = { ...listenerDefaults, ...options };
  let client: pg.Client | null = null;
  let listening = false;
  let started = false;
  let closed = false;
  let failures = 0;
  // The server process of a connection lost while the server may still hold it (a silent cut), and when.
  let orphan: { pid: number; since: Date } | null = null;
  let timer: NodeJS.Timeout | null = null;
  let checks: NodeJS.Timeout | null = null;

  const stopListening = () => {
    if (checks) clearInterval(checks);
    checks = null;
    if (!listening) return;
    listening = false;
    handlers.deaf();
  };

  const scheduleConnect = () => {
    if (closed || timer) return;
    const pause = Math.min(maxPauseMs, minPauseMs * 2 ** failures);
    failures += 1;
    // Random within the pause, so the gateways a restart cut off do not all come back at once.
    timer = setTimeout(
      () => {
        timer = null;
        void connect();
      },
      pause / 2 + (Math.random() * pause) / 2,
    );
    timer.unref();
  };

  const lost = (connection: pg.Client, error?: unknown) => {
    if (client !== connection) return;
    client = null;
    const pid = (connection as unknown as { processID: number | null }).processID;
    if (listening && pid !== null) orphan = { pid, since: new Date() };
    stopListening();
    if (error) options.onTrouble?.(error);
    connection.removeAllListeners('notification');
    // With a check waiting for its answer, end() destroys the socket rather than waiting on a dead peer.
    void connection.end().catch(() => {});
    scheduleConnect();
  };

  // A connection cut silently stays open on the server until its TCP keepalive ends it, and a listener
  // that reads nothing holds back the server's notification queue (8 GB, then every notifying commit fails):
  // once listening again, the gateway ends its old server process, if it is still there under its name.
  const endOrphan = (connection: pg.Client, { pid, since }: { pid: number; since: Date }) => {
    connection
      .query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE pid = $1 AND application_name = $2 AND backend_start < $3', [
        pid,
        LISTEN_APPLICATION_NAME,
        since,
      ])
      .catch((error: unknown) => options.onTrouble?.(error));
  };

  const check = (connection: pg.Client): Promise<void> => {
    let answered = false;
    const timeout = setTimeout(() => {
      // An answer already read from the socket but not yet handled (a busy event loop) is let in first.
      setImmediate(() => {
        if (!answered) lost(connection, new Error(`The listening connection did not answer within ${checkTimeoutMs} ms`));
      });
    }, checkTimeoutMs);
    timeout.unref();
    return connection.query(LIVENESS_CHECK).then(
      () => {
        answered = true;
        clearTimeout(timeout);
      },
      (error: unknown) => {
        answered = true;
        clearTimeout(timeout);
        lost(connection, error);
      },
    );
  };

  async function connect(): Promise<void> {
    // The pool's settings (server, credentials, TLS, keepalives, connect timeout), without its statement timeout.
    const { statement_timeout: _timeout, ...settings } = pool.options as pg.ClientConfig;
    const connection = new pg.Client({ ...settings, application_name: LISTEN_APPLICATION_NAME });
    connection.on('error', (error) => lost(connection, error));
    connection.on('end', () => lost(connection));
    connection.on('notification', (message) => {
      if (client === connection) handlers.notified(message.channel);
    });
    client = connection;
    try {
      await connection.connect();
      await connection.query(channels.map((channel) => `LISTEN ${channel}`).join('; '));
    } catch (error) {
      lost(connection, error);
      return;
    }
    if (closed || client !== connection) {
      await connection.end().catch(() => {});
      return;
    }
    failures = 0;
    listening = true;
    if (orphan) endOrphan(connection, orphan);
    orphan = null;
    let checking = false;
    checks = setInterval(() => {
      if (checking || client !== connection) return;
      checking = true;
      void check(connection).finally(() => (checking = false));
    }, checkIntervalMs);
    checks.unref();
    handlers.listening();
  }

  return {
    start() {
      if (!started && !closed) {
        started = true;
        void connect();
      }
    },
    get listening() {
      return listening;
    },
    async close() {
      closed = true;
      if (timer) clearTimeout(timer);
      timer = null;
      const connection = client;
      client = null;
      stopListening();
      await connection?.end().catch(() => {});
    },
  };
}
