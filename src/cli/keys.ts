/**
 * Issues, lists and revokes API keys on the configured database (DATABASE_URL).
 *   npm run keys -- create --brand <brandId> [--label <text>]
 *   npm run keys -- create --brand <brandId> --publishable --origin <origin> [--origin <origin> ...] [--label <text>]
 *   npm run keys -- create --organization <organizationId> [--label <text>]
 *   npm run keys -- list
 *   npm run keys -- revoke <keyId>
 */
import { parseArgs } from 'node:util';
import { loadConfig } from '../config.ts';
import { connect } from '../db/connect.ts';
import { issueApiKey, listKeys, revokeKey } from '../domain/access/api-keys.ts';
import { DomainError } from '../domain/shared/errors.ts';
import { runWhenMain } from './main.ts';

const usage = `Usage:
  npm run keys -- create --brand <brandId> [--label <text>]
  npm run keys -- create --brand <brandId> --publishable --origin <origin> [--origin <origin> ...] [--label <text>]
  npm run keys -- create --organization <organizationId> [--label <text>]
  npm run keys -- list
  npm run keys -- revoke <keyId>`;

export async function runKeysCli(argv: string[], out: (line: string) => void): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        brand: { type: 'string' },
        organization: { type: 'string' },
        label: { type: 'string' },
        publishable: { type: 'boolean' },
        origin: { type: 'string', multiple: true },
      },
    });
  } catch (error) {
    out(`${error instanceof Error ? error.message : String(error)}\n${usage}`);
    return 2;
  }
  const { values, positionals } = parsed;
  const config = loadConfig();
  const { database: db } = await connect(config.DATABASE_URL, { poolSize: config.DATABASE_POOL_SIZE });
  const deps = { db, now: () => new Date() };
  try {
    const [command, argument] = positionals;
    const origins = values.publishable ? (values.origin ?? []) : undefined;
    if (command === 'create' && (values.brand ? !values.organization : values.organization) && (values.publishable || !values.origin)) {
      const owner = values.brand ? { brandId: values.brand } : { organizationId: values.organization! };
      const key = await issueApiKey(deps, { owner, label: values.label, live: config.production, origins });
      out(`Created ${key.kind} key ${key.id}`);
      if (key.kind === 'publishable') out(`Key (public: put it in your web pages on ${key.allowedOrigins!.join(', ')}): ${key.secret}`);
      else out(`Secret (shown once, store it now): ${key.secret}`);
      return 0;
    }
    if (command === 'list' && positionals.length === 1) {
      for (const k of await listKeys(deps)) {
        const owner =
          k.kind === 'organization'
            ? `organization ${k.organizationId}`
            : k.kind === 'publishable'
              ? `publishable, brand ${k.brandId}, origins ${k.allowedOrigins?.join(' ')}`
              : `brand ${k.brandId}`;
        out(`${k.id}  ${k.prefix}…  ${owner}  ${k.revokedAt ? `revoked ${k.revokedAt}` : 'active'}  ${k.label}`);
      }
      return 0;
    }
    if (command === 'revoke' && argument) {
      await revokeKey(deps, argument);
      out(`Revoked key ${argument}`);
      return 0;
    }
    out(usage);
    return 2;
  } catch (error) {
    if (error instanceof DomainError) {
      out(`Error: ${error.message}`);
      return 1;
    }
    throw error;
  } finally {
    await db.close();
  }
}

runWhenMain(import.meta.url, (argv, out) => runKeysCli(argv, out));
