/**
 * `Database.onEventsCommitted` on PostgreSQL: a unit of work that writes events also queues a
 * notification on EVENTS_CHANNEL (outbox.ts), which the server delivers when the unit commits, to every
 * session LISTENing on the database, whichever gateway committed. Heard on the gateway's listening
 * connection (listener.ts). Once it listens, every listener is called once, for the units that committed
 * before; after it was lost and listens again, once more, since notifications sent meanwhile were lost.
 */
import { EVENTS_CHANNEL } from './outbox.ts';
import type { Listener } from './listener.ts';

export { LISTEN_APPLICATION_NAME } from './listener.ts';

export interface EventHints {
  onEventsCommitted(listener: () => void): () => void;
  /** What the listening connection hears: `notified` and `listening` call the hints' listeners. */
  notified(channel: string): void;
  listening(): void;
}

export function eventHints(connection: () => Listener, onTrouble?: (error: unknown) => void): EventHints {
  const listeners = new Set<() => void>();
  const notify = () => {
    for (const listener of [...listeners]) {
      try {
        listener();
      } catch (error) {
        onTrouble?.(error);
      }
    }
  };
  return {
    onEventsCommitted(listener) {
      listeners.add(listener);
      connection().start();
      return () => listeners.delete(listener);
    },
    notified(channel) {
      if (channel === EVENTS_CHANNEL) notify();
    },
    // Units that committed before LISTEN took effect (while connecting, or while the connection was down)
    // were not heard of: one hint covers them.
    listening: notify,
  };
}
