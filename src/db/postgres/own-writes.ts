/**
 * Tells when this gateway's own writes have become visible: the pool's connections are of a class that
 * notes, from each statement's text, whether it may write, and calls `written` as the statement that makes
 * such a write visible completes (a COMMIT, or an autocommitted statement), before whoever sent it goes on.
 * The data version (data-version.ts) moves there, so a request that starts after a write's answer never
 * sees an answer cached before it, without waiting for the server's notification. Conservative by design:
 * a statement not known to only read counts as a write (a write noted for nothing costs a cache miss; a
 * write missed would serve stale answers until its notification arrives).
 */
import pg from 'pg';

type Kind = 'begin' | 'commit' | 'rollback' | 'read' | 'write';

const FIRST_WORD = /^\s*(?:(?:--[^\n]*(?:\n|$)|\/\*[\s\S]*?\*\/)\s*)*([a-z]+)(\s+to\b)?/i;
/** Words that make a statement reading rows write them (data-modifying CTEs, locking reads counted too). */
const WRITING = /\b(?:insert|update|delete|merge|truncate)\b/i;
/** Statements that read, if nothing in them writes. */
const READING = new Set(['select', 'with', 'values', 'table', 'show']);
/** Statements that change no data: transaction and session control. */
const QUIET = new Set(['savepoint', 'release', 'set', 'reset', 'listen', 'unlisten', 'notify', 'discard', 'deallocate']);
/** More than one statement in one text (simple query protocol). */
const SEVERAL = /;\s*\S/;

/** What a statement does to the data, as far as its text tells. Exported for its unit test. */
export function statementKind(text: string | undefined): Kind {
  if (text === undefined || SEVERAL.test(text)) return 'write';
  const match = FIRST_WORD.exec(text);
  const word = match?.[1]?.toLowerCase();
  if (word === undefined) return 'write';
  if (word === 'begin' || word === 'start') return 'begin';
  if (word === 'commit' || word === 'end') return 'commit';
  if (word === 'rollback' || word === 'abort') return match![2] === undefined ? 'rollback' : 'read';
  if (QUIET.has(word)) return 'read';
  return READING.has(word) && !WRITING.test(text) ? 'read' : 'write';
}

export interface OwnWrites {
  /** Calls `listener` each time a write of this pool's connections has become visible. */
  onWritten(listener: () => void): () => void;
}

type AnyQuery = (...args: unknown[]) => unknown;
/** node-postgres' client with its overloaded `query` seen as one signature, which the subclass forwards. */
type QueryingClient = new (config?: pg.ClientConfig | string) => { query(...args: unknown[]): unknown };
const BaseClient = pg.Client as unknown as QueryingClient;

/** A connection class for a pool, and the writes its connections make visible. */
export function ownWritesClient(): { Client: typeof pg.Client; writes: OwnWrites } {
  const listeners = new Set<() => void>();
  const written = () => {
    for (const listener of listeners) listener();
  };

  class NoticingClient extends BaseClient {
    #inTransaction = false;
    #wrote = false;

    override query(...args: unknown[]): unknown {
      const config = args[0] as { text?: unknown } | string | undefined;
      const text = typeof config === 'string' ? config : config?.text;
      const kind = statementKind(typeof text === 'string' ? text : undefined);
      let visible = false;
      if (kind === 'begin') {
        this.#inTransaction = true;
        this.#wrote = false;
      } else if (kind === 'commit' || kind === 'rollback') {
        visible = kind === 'commit' && this.#wrote;
        this.#inTransaction = false;
        this.#wrote = false;
      } else if (kind === 'write') {
        if (this.#inTransaction) this.#wrote = true;
        else visible = true;
      }
      if (!visible) return super.query(...args);
      // Noted as it completes, failed or not (a COMMIT whose answer was lost may have committed), before
      // the sender's callback or promise continuation runs (this handler is the first one).
      const last = args.length - 1;
      const callback = args[last];
      if (typeof callback === 'function') {
        args[last] = (...outcome: unknown[]) => {
          written();
          (callback as AnyQuery)(...outcome);
        };
        return super.query(...args);
      }
      const result = super.query(...args) as { then?: unknown; once?: unknown } | undefined;
      if (typeof result?.then === 'function') (result as Promise<unknown>).then(written, written);
      else if (typeof result?.once === 'function') {
        const submitted = result as { once(event: string, listener: () => void): void };
        submitted.once('end', written);
        submitted.once('error', written);
      }
      return result;
    }
  }

  return {
    Client: NoticingClient as unknown as typeof pg.Client,
    writes: {
      onWritten(listener) {
        listeners.add(listener);
        return () => listeners.delete(listener);
      },
    },
  };
}

const poolWrites = new WeakMap<pg.Pool, OwnWrites>();

/** Registers the writes of `pool`'s connections (openPostgres). */
export function noteOwnWrites(pool: pg.Pool, writes: OwnWrites): void {
  poolWrites.set(pool, writes);
}

/** The writes of `pool`'s connections, if it was opened by openPostgres. */
export function ownWritesOf(pool: pg.Pool): OwnWrites | undefined {
  return poolWrites.get(pool);
}
