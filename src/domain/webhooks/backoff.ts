/** When a failed delivery is tried again, and when it is given up. */

export interface FailedAttempt {
  /** When the delivery was queued (its event's time). */
  createdAt: string;
  /** Attempts made so far, the one that just failed included (1 after the first failure). */
  attempts: number;
  now: Date;
  retryBaseSeconds: number;
  maxAgeSeconds: number;
}

/**
 * The next attempt's time: `retryBaseSeconds * 2^(attempts - 1)` after now (10 s, 20 s, 40 s... by
 * default), or null when that falls past `maxAgeSeconds` after the delivery was queued (give up).
 */
export function nextAttemptAt(attempt: FailedAttempt): string | null {
  const delayMs = attempt.retryBaseSeconds * 1000 * 2 ** (attempt.attempts - 1);
  const next = attempt.now.getTime() + delayMs;
  const deadline = Date.parse(attempt.createdAt) + attempt.maxAgeSeconds * 1000;
  return next > deadline ? null : new Date(next).toISOString();
}
