/**
 * Moving sealed values to the newest encryption key after a rotation (`npm run secrets -- reencrypt`).
 * Every gateway must already run with the new keyring (ENCRYPTION_KEYS=new,old): values moved here
 * are readable only with the new key. Each value is swapped only if it is still the one read, so a
 * value a gateway writes meanwhile (sealed with the newest key already) is never overwritten. Values
 * no key of the ring opens are reported and left as they are.
 */
import type { Database } from '../shared/database.ts';
import { answerContext } from '../idempotency/idempotency.ts';
import { seal, sealedWithNewest, unseal, type Keyring } from '../shared/encryption.ts';

export interface SealedValueCounts {
  /** Sealed values found. */
  total: number;
  /** Sealed with the newest key already. */
  current: number;
  /** Sealed with an older key of the ring and left so (`status` only counts them). */
  older: number;
  /** Moved from an older key to the newest (`reencrypt`). */
  moved: number;
  /** Opened by no key of the ring (sealed with a key no longer listed): their ids. */
  unreadable: string[];
}

export interface SealedValuesReport {
  webhookSecrets: SealedValueCounts;
  idempotentAnswers: SealedValueCounts;
}

/** One kind of sealed value: how to page through it, what its context is, how to swap it. */
interface SealedKind<Cursor> {
  page(after: Cursor | null, limit: number): Promise<Array<{ cursor: Cursor; id: string; context: string; sealed: string }>>;
  replace(cursor: Cursor, previous: string, next: string): Promise<boolean>;
}

const pageSize = 200;

async function visit<Cursor>(kind: SealedKind<Cursor>, keys: Keyring, move: boolean): Promise<SealedValueCounts> {
  const counts: SealedValueCounts = { total: 0, current: 0, older: 0, moved: 0, unreadable: [] };
  let after: Cursor | null = null;
  for (;;) {
    const rows = await kind.page(after, pageSize);
    for (const row of rows) {
      counts.total += 1;
      if (sealedWithNewest(keys, row.sealed, row.context)) {
        counts.current += 1;
        continue;
      }
      let plaintext: string;
      try {
        plaintext = unseal(keys, row.sealed, row.context);
      } catch {
        counts.unreadable.push(row.id);
        continue;
      }
      if (!move) {
        counts.older += 1;
        continue;
      }
      // Not swapped: a gateway rewrote it meanwhile, sealed with the newest key, so it is current too.
      if (await kind.replace(row.cursor, row.sealed, seal(keys, plaintext, row.context))) counts.moved += 1;
      else counts.current += 1;
    }
    if (rows.length < pageSize) return counts;
    after = rows[rows.length - 1]!.cursor;
  }
}

function kinds(db: Database) {
  const webhookSecrets: SealedKind<string> = {
    page: async (after, limit) =>
      (await db.webhooks.sealedSecretsPage(after, limit)).map((row) => ({
        cursor: row.id,
        id: row.id,
        context: row.id,
        sealed: row.secretCiphertext,
      })),
    replace: (id, previous, next) => db.webhooks.replaceSealedSecret(id, previous, next),
  };
  const idempotentAnswers: SealedKind<{ apiKeyId: string; key: string }> = {
    page: async (after, limit) =>
      (await db.idempotency.sealedAnswersPage(after, limit)).map((row) => ({
        cursor: { apiKeyId: row.apiKeyId, key: row.key },
        id: `${row.apiKeyId}/${row.key}`,
        context: answerContext(row.apiKeyId, row.key),
        sealed: row.responseBody,
      })),
    replace: (cursor, previous, next) => db.idempotency.replaceSealedAnswer(cursor.apiKeyId, cursor.key, previous, next),
  };
  return { webhookSecrets, idempotentAnswers };
}

/** Counts the sealed values by the key that opens them; changes nothing. */
export async function sealedValuesStatus(db: Database, keys: Keyring): Promise<SealedValuesReport> {
  const { webhookSecrets, idempotentAnswers } = kinds(db);
  return { webhookSecrets: await visit(webhookSecrets, keys, false), idempotentAnswers: await visit(idempotentAnswers, keys, false) };
}

/** Seals every value an older key of the ring opens with the newest key instead. */
export async function reencryptSealedValues(db: Database, keys: Keyring): Promise<SealedValuesReport> {
  const { webhookSecrets, idempotentAnswers } = kinds(db);
  return { webhookSecrets: await visit(webhookSecrets, keys, true), idempotentAnswers: await visit(idempotentAnswers, keys, true) };
}
