import type { IdempotencyState } from '../shared/values.ts';

export interface IdempotencyRecord {
  apiKeyId: string;
  key: string;
  /** SHA-256 of method, path and body: the same key with another request is refused. */
  requestHash: string;
  state: IdempotencyState;
  responseStatus: number | null;
  responseBody: string | null;
  /**
   * While `running`: until when the request that claimed it is presumed alive. A retry finding the
   * lease ended (its request was cut off by a crash) takes the record over and runs again.
   */
  leaseExpiresAt: string | null;
  createdAt: string;
}

export interface IdempotencyStore {
  findIdempotencyRecord(apiKeyId: string, key: string): Promise<IdempotencyRecord | undefined>;
  insertRunningRecord(row: {
    apiKeyId: string;
    key: string;
    requestHash: string;
    leaseExpiresAt: string;
    createdAt: string;
  }): Promise<void>;
  /**
   * Gives a running record whose lease ended a new lease, unless someone else (another retry, in this
   * process or another on the same file) did first: true when this caller now holds it.
   */
  takeOverRecord(apiKeyId: string, key: string, seenLease: string | null, leaseExpiresAt: string): Promise<boolean>;
  /** Stores the answer of a running record; the first run to answer wins, a later one changes nothing. */
  completeRecord(apiKeyId: string, key: string, responseStatus: number, responseBody: string): Promise<void>;
  /** Removes a running record while `lease` is still its lease (a run taken over no longer owns it). */
  deleteRunningRecord(apiKeyId: string, key: string, lease: string): Promise<void>;
  /** Removes every record created before `cutoff` (ISO 8601). */
  deleteRecordsBefore(cutoff: string): Promise<void>;
  /** Up to `limit` stored (sealed) answers after `after` in key order, for re-encryption. */
  sealedAnswersPage(after: SealedAnswerKey | null, limit: number): Promise<SealedAnswer[]>;
  /** Swaps the stored answer `previous` for `next`, unless it changed meanwhile: true when swapped. */
  replaceSealedAnswer(apiKeyId: string, key: string, previous: string, next: string): Promise<boolean>;
}

export interface SealedAnswerKey {
  apiKeyId: string;
  key: string;
}

export interface SealedAnswer extends SealedAnswerKey {
  responseBody: string;
}
