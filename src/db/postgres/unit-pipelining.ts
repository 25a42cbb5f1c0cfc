/**
 * A unit of work's BEGIN sent with its first statement and its COMMIT with its last, in one write each, so
 * a unit costs two round trips fewer: the pool's connections run in node-postgres' pipeline mode (a query
 * is sent without waiting for the answer to the one before; each keeps its own Sync, so its own answer or
 * error) and are of this class, which the unit runner (database.ts) tells what to send with what.
 *
 * The server runs what it receives in order, so the BEGIN still starts the transaction before the first
 * statement runs, and the COMMIT runs once the last has: it commits if every statement succeeded and
 * rolls back if the last one failed (a COMMIT in a failed transaction ends it as a ROLLBACK), so a unit
 * whose COMMIT was sent needs no ROLLBACK. A unit that sends no statement starts no transaction.
 */
import type pg from 'pg';
import type { QueryingClient } from './own-writes.ts';

/** The unit runner's side of a pooled connection of `unitPipelining`'s class. */
export interface UnitConnection {
  /** `begin` (a BEGIN) goes with the next statement, in the same write, ahead of it. */
  beginWithNext(begin: string): void;
  /** The next statement is the unit's last: a COMMIT goes behind it, in the same write. */
  commitWithNext(): void;
  /** Ends the unit: waits for the COMMIT sent behind its last statement, or sends one; nothing when it sent no statement. */
  commit(): Promise<void>;
  /** Ends a failed unit: a ROLLBACK, unless its transaction never began or its COMMIT was already sent. */
  rollback(): Promise<void>;
}

const settled = (answer: unknown): Promise<unknown> => {
  const promise = answer as Promise<unknown>;
  // Awaited later (commit, rollback); handled now so a failure meanwhile is not an unhandled rejection.
  promise.catch(() => {});
  return promise;
};

/** `Base` (a node-postgres client class) whose connections take a unit's BEGIN and COMMIT with its statements. */
export function unitPipelining(Base: typeof pg.Client): typeof pg.Client {
  class UnitClient extends (Base as unknown as QueryingClient) implements UnitConnection {
    /** idle: no unit; pending: a BEGIN waits for the first statement; open: begun; ending: its COMMIT sent. */
    #state: 'idle' | 'pending' | 'open' | 'ending' = 'idle';
    #begin = '';
    #begun: Promise<unknown> | undefined;
    #commitNext = false;
    #committed: Promise<unknown> | undefined;

    beginWithNext(begin: string): void {
      this.#state = 'pending';
      this.#begin = begin;
      this.#commitNext = false;
    }

    commitWithNext(): void {
      this.#commitNext = this.#state !== 'idle';
    }

    override query(...args: unknown[]): unknown {
      if (this.#state !== 'pending' && !this.#commitNext) return super.query(...args);
      // One write for what goes together: node-postgres writes each query's messages corked; the outer
      // cork holds them until all are written.
      const stream = (this as unknown as { connection: { stream: { cork?(): void; uncork?(): void } } }).connection.stream;
      stream.cork?.();
      try {
        if (this.#state === 'pending') {
          this.#state = 'open';
          this.#begun = settled(super.query(this.#begin));
        }
        const answer = super.query(...args);
        if (this.#commitNext) {
          this.#commitNext = false;
          this.#state = 'ending';
          this.#committed = settled(super.query('COMMIT'));
        }
        return answer;
      } finally {
        stream.uncork?.();
      }
    }

    async commit(): Promise<void> {
      const ended = this.#end();
      if (ended.state === 'ending') {
        // Both answered before the connection goes back to the pool, even when the BEGIN failed.
        const [begun, committed] = await Promise.allSettled([ended.begun, ended.committed]);
        if (begun.status === 'rejected') throw begun.reason;
        if (committed.status === 'rejected') throw committed.reason;
      } else if (ended.state === 'open') {
        await ended.begun;
        await super.query('COMMIT');
      }
    }

    async rollback(): Promise<void> {
      const ended = this.#end();
      if (ended.state === 'ending') await ended.committed!.catch(() => {});
      else if (ended.state === 'open') await super.query('ROLLBACK');
    }

    /** The unit as it was, the connection's state reset for the next. */
    #end() {
      const ended = { state: this.#state, begun: this.#begun, committed: this.#committed };
      this.#state = 'idle';
      this.#begun = undefined;
      this.#committed = undefined;
      this.#commitNext = false;
      return ended;
    }
  }
  return UnitClient as unknown as typeof pg.Client;
}

/** A pooled connection as the unit runner sees it. */
export type PooledUnitConnection = pg.PoolClient & UnitConnection;
