/**
 * `Database.onEventsCommitted` on PostgreSQL: a unit of work that writes events also queues a
 * notification on EVENTS_CHANNEL (outbox.ts), which the server delivers when the unit commits, to every
 * session LISTENing on the database, whichever gateway committed. Each gateway listens on one connection
 * of its own, opened when the first listener comes and kept outside the pool (it must stay open, and
 * must not take a connection from the units' budget). Once it listens, every listener is called once,
 * for the units that committed before. The server ends it on a restart, a failover or
 * pg_terminate_backend: it is opened again after a pause that doubles up to a few seconds, and then
 * every listener is called once, since notifications sent meanwhile were lost.
 */
import pg from 'pg';
import { EVENTS_CHANNEL } from './outbox.ts';

export interface EventHints {
  onEventsCommitted(listener: () => void): () => void;
  /** Ends the connection and stops reconnecting. */
  close(): Promise<void>;
}

export interface EventHintOptions {
  /** The first pause before opening the connection again; it doubles after each failure up to `maxPauseMs`. */
  minPauseMs?: number;
  maxPauseMs?: number;
  /** Told about connections lost and failed attempts (the gateway goes on; the live hub also reads on a timer). */
  onTrouble?: (error: unknown) => void;
}

/** How the listening connection shows in pg_stat_activity, so operators can tell it from the pool's. */
export const LISTEN_APPLICATION_NAME = 'tessera:events';

export function eventHints(pool: pg.Pool, options: EventHintOptions = {}): EventHints {
  const minPause = options.minPauseMs ?? 100;
  const maxPause = options.maxPauseMs ?? 5_000;
  const listeners = new Set<() => void>();
  let client: pg.Client | null = null;
  let started = false;
  let closed = false;
  let failures = 0;
  let timer: NodeJS.Timeout | null = null;

  const notify = () => {
    for (const listener of [...listeners]) {
      try {
        listener();
      } catch (error) {
        options.onTrouble?.(error);
      }
    }
  };

  const scheduleConnect = () => {
    if (closed || timer) return;
    const pause = Math.min(maxPause, minPause * 2 ** failures);
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
    if (error) options.onTrouble?.(error);
    connection.removeAllListeners('notification');
    void connection.end().catch(() => {});
    scheduleConnect();
  };

  async function connect(): Promise<void> {
    // The pool's settings (server, credentials, TLS, keepalives, connect timeout), without its statement timeout.
    const { statement_timeout: _timeout, ...settings } = pool.options as pg.ClientConfig;
    const connection = new pg.Client({ ...settings, application_name: LISTEN_APPLICATION_NAME });
    connection.on('error', (error) => lost(connection, error));
    connection.on('end', () => lost(connection));
    connection.on('notification', (message) => {
      if (message.channel === EVENTS_CHANNEL) notify();
    });
    client = connection;
    try {
      await connection.connect();
      await connection.query(`LISTEN ${EVENTS_CHANNEL}`);
    } catch (error) {
      lost(connection, error);
      return;
    }
    if (closed) {
      await connection.end().catch(() => {});
      return;
    }
    failures = 0;
    // Units that committed before LISTEN took effect (while connecting, or while the connection was
    // down) were not heard of: one hint covers them.
    notify();
  }

  return {
    onEventsCommitted(listener) {
      listeners.add(listener);
      if (!started && !closed) {
        started = true;
        void connect();
      }
      return () => listeners.delete(listener);
    },
    async close() {
      closed = true;
      listeners.clear();
      if (timer) clearTimeout(timer);
      timer = null;
      const connection = client;
      client = null;
      await connection?.end().catch(() => {});
    },
  };
}
