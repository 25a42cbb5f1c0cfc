/**
 * Encryption key rotation on the configured database (DATABASE_URL, ENCRYPTION_KEYS):
 *   npm run secrets -- status      how many sealed values each key opens (changes nothing)
 *   npm run secrets -- reencrypt   seals every value an older key opens with the newest key
 * The procedure is in docs/operations.md ("Rotating the encryption key").
 */
import { loadConfig } from '../config.ts';
import { connect } from '../db/connect.ts';
import { reencryptSealedValues, sealedValuesStatus, type SealedValueCounts } from '../domain/operations/reencrypt.ts';
import { keyring } from '../domain/shared/encryption.ts';
import { runWhenMain } from './main.ts';

const usage = `Usage:
  npm run secrets -- status      count the sealed values by key (newest, older, none of ENCRYPTION_KEYS)
  npm run secrets -- reencrypt   move every value sealed with an older key to the newest (first of ENCRYPTION_KEYS)`;

const labels = { webhookSecrets: 'webhook signing secrets', idempotentAnswers: 'stored idempotent answers' } as const;

function describe(counts: SealedValueCounts): string {
  const parts = [`${counts.total} sealed`, `${counts.current} with the newest key`];
  if (counts.moved > 0) parts.push(`${counts.moved} moved to it`);
  if (counts.older > 0) parts.push(`${counts.older} with an older key`);
  if (counts.unreadable.length > 0) parts.push(`${counts.unreadable.length} no key opens (${counts.unreadable.join(', ')})`);
  return parts.join(', ');
}

export async function runSecretsCli(argv: string[], out: (line: string) => void): Promise<number> {
  const [command, ...rest] = argv;
  if ((command !== 'status' && command !== 'reencrypt') || rest.length > 0) {
    out(usage);
    return 2;
  }
  const config = loadConfig();
  const keys = keyring(config.ENCRYPTION_KEYS);
  const { database: db } = await connect(config.DATABASE_URL, { poolSize: config.DATABASE_POOL_SIZE });
  try {
    const report = command === 'status' ? await sealedValuesStatus(db, keys) : await reencryptSealedValues(db, keys);
    out(`Keys: ${keys.length} (the first seals, every one opens)`);
    for (const kind of ['webhookSecrets', 'idempotentAnswers'] as const) out(`${labels[kind]}: ${describe(report[kind])}`);
    const stranded = report.webhookSecrets.unreadable.length + report.idempotentAnswers.unreadable.length;
    const older = report.webhookSecrets.older + report.idempotentAnswers.older;
    if (stranded > 0) {
      out(
        `${stranded} value(s) no key of ENCRYPTION_KEYS opens: add back the key that sealed them, or register those webhook endpoints again (stored answers expire within 24 hours).`,
      );
      return 1;
    }
    if (command === 'reencrypt' || older === 0)
      out('Every sealed value opens with the newest key: older keys can be removed from ENCRYPTION_KEYS.');
    else out('Run `npm run secrets -- reencrypt` before removing older keys from ENCRYPTION_KEYS.');
    return 0;
  } finally {
    await db.close();
  }
}

runWhenMain(import.meta.url, (argv, out) => runSecretsCli(argv, out));
