/**
 * Tells when this gateway's own writes have become visible: the pool's connections are of a class that
 * notes, from each statement's text, whether it may write a table cached answers may read (writes of only
 * UNVERSIONED_TABLES, and locking reads, do not count), and calls `written` as the statement that makes
 * such a write visible completes (a COMMIT, or an autocommitted statement), before whoever sent it goes on.
 * The data version (data-version.ts) moves there, so a request that starts after a write's answer never
 * sees an answer cached before it, without waiting for the server's notification. Conservative by design:
 * a statement not known to only read counts as a write (a write noted for nothing costs a cache miss; a
 * write missed would serve stale answers until its notification arrives).
 */
import pg from 'pg';
import { UNVERSIONED_TABLES } from '../unversioned-tables.ts';

/** `unread`: a write of what no cached answer reads (writesOnlyUnversioned), or a locking read: it moves no data version. */
type Kind = 'begin' | 'commit' | 'rollback' | 'read' | 'write' | 'unread';

const FIRST_WORD = /^\s*(?:(?:--[^\n]*(?:\n|$)|\/\*[\s\S]*?\*\/)\s*)*([a-z]+)(\s+to\b)?/i;
/** Words that make a statement reading rows write them (data-modifying CTEs, locking reads counted too). */
const WRITING = /\b(?:insert|update|delete|merge|truncate)\b/i;
/** Statements that read, if nothing in them writes. */
const READING = new Set(['select', 'with', 'values', 'table', 'show']);
/** Statements that change no data: transaction and session control. */
const QUIET = new Set(['savepoint', 'release', 'set', 'reset', 'listen', 'unlisten', 'notify', 'discard', 'deallocate']);
/** More than one statement in one text (simple query protocol). */
const SEVERAL = /;\s*\S/;
/**
 * The tables a statement writes, as its text names them: INSERT INTO, UPDATE (not a locking read's FOR
 * [NO KEY] UPDATE, nor ON CONFLICT's DO UPDATE), DELETE FROM, MERGE INTO; in a data-modifying CTE too.
 * TRUNCATE, which may name several tables, is left a write. No foreign key cascades and no trigger writes
 * elsewhere (the schema's only triggers notify), so these are all a statement writes.
 */
const WRITE_TARGET = /\b(?:insert\s+into|(?<!\b(?:for|key|do)\s+)update|delete\s+from|merge\s+into)\s+(?:only\s+)?"?([a-z_][a-z0-9_]*)"?/gi;

/**
 * Whether a statement that may write writes only tables no cached answer reads (UNVERSIONED_TABLES: their
 * triggers notify nobody, migration 0014), so its commit moves no data version. A statement naming no
 * target is a locking read (`SELECT ... FOR UPDATE`), which writes no row; anything else naming none is
 * judged a write.
 */
function writesOnlyUnversioned(text: string, word: string): boolean {
  let targets = 0;
  for (const [, table] of text.matchAll(WRITE_TARGET)) {
    if (!UNVERSIONED_TABLES.has(table!.toLowerCase())) return false;
    targets += 1;
  }
  return targets > 0 || READING.has(word);
}

/**
 * The tables an API key's lookup reads (stores/access/api-keys.ts: findActiveKeyByHash, brandIdsOfOrganization),
 * as a statement's text names them, quoted or not. No foreign key cascades into them and no trigger writes
 * them, so a statement writes them only where its text names them.
 */
const KEY_TABLES = /\b(?:api_keys|brands|organizations)\b/i;

/**
 * `decide` remembered per statement text: the texts of prepared statements are few and come back on every
 * call, and their regular expressions cost a few µs a statement on texts of kilobytes. At most
 * TEXTS_REMEMBERED texts, past which each further text is decided on every call.
 */
const TEXTS_REMEMBERED = 4096;
function rememberedPerText<T>(decide: (text: string) => T): (text: string | undefined, fallback: T) => T {
  const decided = new Map<string, T>();
  return (text, fallback) => {
    if (text === undefined) return fallback;
    let answer = decided.get(text);
    if (answer === undefined) {
      answer = decide(text);
      if (decided.size < TEXTS_REMEMBERED) decided.set(text, answer);
    }
    return answer;
  };
}

const keyTablesNamed = rememberedPerText((text) => KEY_TABLES.test(text));

/** Whether a statement that writes may write what a key lookup reads: conservative (an unknown text may). Exported for its unit test. */
export function writesKeys(text: string | undefined): boolean {
  return keyTablesNamed(text, true);
}

const kindOfText = rememberedPerText((text): Kind => {
  if (SEVERAL.test(text)) return 'write';
  const match = FIRST_WORD.exec(text);
  const word = match?.[1]?.toLowerCase();
  if (word === undefined) return 'write';
  if (word === 'begin' || word === 'start') return 'begin';
  if (word === 'commit' || word === 'end') return 'commit';
  if (word === 'rollback' || word === 'abort') return match![2] === undefined ? 'rollback' : 'read';
  if (QUIET.has(word)) return 'read';
  if (READING.has(word) && !WRITING.test(text)) return 'read';
  return writesOnlyUnversioned(text, word) ? 'unread' : 'write';
});

/** What a statement does to the data, as far as its text tells. Exported for its unit test. */
export const statementKind = (text: string | undefined): Kind => kindOfText(text, 'write');

export interface OwnWrites {
  /**
   * Calls `listener` each time a write of this pool's connections has become visible; `keys`: whether it
   * may have written what a key lookup reads (writesKeys).
   */
  onWritten(listener: (keys: boolean) => void): () => void;
}

type AnyQuery = (...args: unknown[]) => unknown;
/** node-postgres' client with its overloaded `query` seen as one signature, which the subclass forwards. */
export type QueryingClient = new (config?: pg.ClientConfig | string) => { query(...args: unknown[]): unknown };
const BaseClient = pg.Client as unknown as QueryingClient;

/** A connection class for a pool, and the writes its connections make visible. */
export function ownWritesClient(): { Client: typeof pg.Client; writes: OwnWrites } {
  const listeners = new Set<(keys: boolean) => void>();
  const written = (keys: boolean) => {
    for (const listener of listeners) listener(keys);
  };

  class NoticingClient extends BaseClient {
    #inTransaction = false;
    #wrote = false;
    #wroteKeys = false;

    override query(...args: unknown[]): unknown {
      const config = args[0] as { text?: unknown } | string | undefined;
      const text = typeof config === 'string' ? config : config?.text;
      const known = typeof text === 'string' ? text : undefined;
      const kind = statementKind(known);
      let visible = false;
      let keys = false;
      if (kind === 'begin') {
        this.#inTransaction = true;
        this.#wrote = false;
        this.#wroteKeys = false;
      } else if (kind === 'commit' || kind === 'rollback') {
        visible = kind === 'commit' && this.#wrote;
        keys = this.#wroteKeys;
        this.#inTransaction = false;
        this.#wrote = false;
        this.#wroteKeys = false;
      } else if (kind === 'write') {
        keys = writesKeys(known);
        if (this.#inTransaction) {
          this.#wrote = true;
          this.#wroteKeys ||= keys;
        } else visible = true;
      }
      if (!visible) return super.query(...args);
      const noted = () => written(keys);
      // Noted as it completes, failed or not (a COMMIT whose answer was lost may have committed), before
      // the sender's callback or promise continuation runs (this handler is the first one).
      const last = args.length - 1;
      const callback = args[last];
      if (typeof callback === 'function') {
        args[last] = (...outcome: unknown[]) => {
          noted();
          (callback as AnyQuery)(...outcome);
        };
        return super.query(...args);
      }
      const result = super.query(...args) as { then?: unknown; once?: unknown } | undefined;
      if (typeof result?.then === 'function') (result as Promise<unknown>).then(noted, noted);
      else if (typeof result?.once === 'function') {
        const submitted = result as { once(event: string, listener: () => void): void };
        submitted.once('end', noted);
        submitted.once('error', noted);
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
