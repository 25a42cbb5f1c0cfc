/**
 * Admission of units of work, the same on both engines. Each adapter lets a few units run at once
 * (SQLite one, behind its lock; PostgreSQL a share of its pool) and the others wait here for their
 * turn. A unit with a deadline (UnitOptions.signal: a request's) gives up after `queueTimeoutMs` and
 * leaves the queue the moment its deadline passes, so a client that gave up leaves no work behind and
 * no answer waits in the queue for long. (How many write requests may wait at all is bounded before
 * they reach the database, by the HTTP layer: src/http/write-admission.ts.) Units without a deadline
 * (background jobs, seeding) always wait.
 */
import { DatabaseOverloadedError } from '../domain/shared/database.ts';

export interface AdmissionSettings {
  /** How long a unit with a deadline waits for its turn at most (WRITE_QUEUE_TIMEOUT_MS). */
  queueTimeoutMs: number;
}

/** The defaults, shared with the configuration (which must not load a driver). */
export const admissionDefaults: AdmissionSettings = { queueTimeoutMs: 2_000 };

/** Why a unit that waited for its turn did not run. */
export const gone = () =>
  new DatabaseOverloadedError('The request ended (its client left, or it ran out of time) before its unit of work committed');

export interface Admission<Turn> {
  /** Units waiting for their turn now (the ones that gave up are not counted). */
  readonly waiting: number;
  /**
   * Waits for a turn (what `acquire` gives) and returns it; the caller hands it back when done. With a
   * signal it rejects with DatabaseOverloadedError when waiting takes too long or when the signal
   * aborts; a turn that comes after that goes straight to `giveBack`.
   */
  take(signal?: AbortSignal): Promise<Turn>;
}

export function admission<Turn>(
  settings: AdmissionSettings,
  acquire: () => Promise<Turn>,
  giveBack: (turn: Turn) => void,
): Admission<Turn> {
  let waiting = 0;
  const take = (signal?: AbortSignal): Promise<Turn> => {
    if (signal?.aborted) return Promise.reject(gone());
    waiting += 1;
    return new Promise<Turn>((resolve, reject) => {
      let settled = false;
      let timer: NodeJS.Timeout | undefined;
      const leave = () => {
        settled = true;
        waiting -= 1;
        clearTimeout(timer);
        signal?.removeEventListener('abort', abandon);
      };
      const abandon = () => {
        if (settled) return;
        leave();
        reject(gone());
      };
      if (signal) {
        signal.addEventListener('abort', abandon, { once: true });
        timer = setTimeout(() => {
          if (settled) return;
          leave();
          reject(new DatabaseOverloadedError(`A unit of work waited ${settings.queueTimeoutMs} ms for its turn (WRITE_QUEUE_TIMEOUT_MS)`));
        }, settings.queueTimeoutMs);
      }
      acquire().then(
        (turn) => {
          if (settled) return giveBack(turn);
          leave();
          resolve(turn);
        },
        (error: unknown) => {
          if (settled) return;
          leave();
          reject(error);
        },
      );
    });
  };
  return {
    get waiting() {
      return waiting;
    },
    take,
  };
}
