/**
 * The two ways work is turned away for want of capacity, as both faces answer them: the database could
 * not take it (DatabaseUnavailableError: 503 DATABASE_UNAVAILABLE) or this gateway would not queue it
 * (DatabaseOverloadedError: 503 OVERLOADED). One table for the code, the message a client is told, when
 * to try again and the log line, so REST, GraphQL and the GraphQL context answer and log them alike.
 */
import { DatabaseOverloadedError, DatabaseUnavailableError } from '../domain/shared/database.ts';

export type TurnedAwayCode = 'DATABASE_UNAVAILABLE' | 'OVERLOADED';

export interface TurnedAway {
  code: TurnedAwayCode;
  /** What a client is told (never the cause). */
  message: string;
  retryAfterSeconds: number;
  /** One log line: a warning with the cause for an outage; an expected refusal under a burst at info, without a stack. */
  log(
    logger: { warn(details: object, message: string): void; info(details: object, message: string): void },
    error: Error,
    details?: object,
  ): void;
}

export const turnedAway: Record<TurnedAwayCode, TurnedAway> = {
  DATABASE_UNAVAILABLE: {
    code: 'DATABASE_UNAVAILABLE',
    message: 'The database is unavailable; retry the request',
    retryAfterSeconds: 2,
    log: (logger, error, details) => logger.warn({ err: error.cause, ...details }, 'database unavailable'),
  },
  OVERLOADED: {
    code: 'OVERLOADED',
    message: 'The server has more writes waiting than it can take; nothing was written: retry the request',
    retryAfterSeconds: 1,
    log: (logger, error, details) => logger.info({ reason: error.message, ...details }, 'write refused: overloaded'),
  },
};

/** How `error` turns work away, if it is one of the two. */
export function turnedAwayBy(error: unknown): TurnedAway | null {
  if (error instanceof DatabaseUnavailableError) return turnedAway.DATABASE_UNAVAILABLE;
  if (error instanceof DatabaseOverloadedError) return turnedAway.OVERLOADED;
  return null;
}

/** The entry of a GraphQL error code, if it is one of the two. */
export const turnedAwayWith = (code: unknown): TurnedAway | null =>
  code === 'DATABASE_UNAVAILABLE' || code === 'OVERLOADED' ? turnedAway[code] : null;
