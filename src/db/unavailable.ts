/**
 * The port's DatabaseUnavailableError from an engine's own failures: each adapter says which of its
 * errors mean "the database cannot take this now" (down, restarting, full, too slow), and its Database
 * rejects with DatabaseUnavailableError for those, whatever store, unit of work or version read met them.
 */
import { DatabaseUnavailableError, type Database } from '../domain/shared/database.ts';

/** Whether `error`, or an error that caused it, is one `test` recognizes. */
function causedBy(error: unknown, test: (error: object) => boolean): boolean {
  for (let current = error; typeof current === 'object' && current !== null; current = (current as { cause?: unknown }).cause) {
    if (test(current)) return true;
  }
  return false;
}

type AsyncFunction = (...args: unknown[]) => Promise<unknown>;
type AnyFunction = (...args: unknown[]) => unknown;

/** `database` with every rejection `unavailable` recognizes turned into DatabaseUnavailableError (the original as its cause). */
export function reportingUnavailable(database: Database, unavailable: (error: object) => boolean): Database {
  const translate = (error: unknown): never => {
    if (error instanceof DatabaseUnavailableError || !causedBy(error, unavailable)) throw error;
    throw new DatabaseUnavailableError('The database is unavailable', { cause: error });
  };
  // Only what answers with a promise meets the database; a registration (onEventsCommitted) is left as it is.
  const wrap =
    (fn: AnyFunction): AnyFunction =>
    (...args) => {
      const result = fn(...args);
      return result instanceof Promise ? result.catch(translate) : result;
    };
  const wrapped: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(database)) {
    wrapped[key] =
      typeof value === 'function'
        ? wrap(value as AnyFunction)
        : Object.fromEntries(Object.entries(value as Record<string, AsyncFunction>).map(([name, fn]) => [name, wrap(fn)]));
  }
  return wrapped as unknown as Database;
}
