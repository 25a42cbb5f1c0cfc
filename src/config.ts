import { z } from 'zod';

/** Webhook delivery defaults, shared with `buildApp` callers that pass no full config. */
export const webhookDefaults = { timeoutMs: 10_000, retryBaseSeconds: 10, maxAgeSeconds: 3 * 86_400 } as const;

/**
 * The key used outside production when ENCRYPTION_KEY is unset. It is public (it is in this file),
 * so production refuses it: secrets encrypted under it are only as safe as the database file.
 */
export const DEVELOPMENT_ENCRYPTION_KEY = Buffer.from('tessera-development-webhooks-key').toString('base64');

const schema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(4000),
  HOST: z.string().min(1).default('127.0.0.1'),
  DATABASE_URL: z.string().min(1).default('./data/tessera.sqlite'),
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  HOLD_TTL_SECONDS: z.coerce.number().int().min(1).max(86_400).default(900),
  WAITLIST_OFFER_TTL_SECONDS: z.coerce.number().int().min(1).max(7 * 86_400).default(86_400),
  /** Only `sandbox` exists today; production must name it explicitly (see README). */
  PAYMENT_PROCESSOR: z.enum(['sandbox']).optional(),
  /** Encrypts secrets the server must read back (webhook signing secrets, stored idempotent answers): 32 random bytes, base64. Required in production. */
  ENCRYPTION_KEY: z
    .string()
    .refine((v) => /^[A-Za-z0-9+/]+={0,2}$/.test(v) && Buffer.from(v, 'base64').length === 32, 'must be 32 bytes, base64 encoded (openssl rand -base64 32)')
    .optional(),
  WEBHOOK_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(webhookDefaults.timeoutMs),
  WEBHOOK_RETRY_BASE_SECONDS: z.coerce.number().positive().max(3_600).default(webhookDefaults.retryBaseSeconds),
  WEBHOOK_MAX_AGE_SECONDS: z.coerce.number().int().min(1).max(30 * 86_400).default(webhookDefaults.maxAgeSeconds),
  /** Defaults to true outside production, false in production (SSRF guard). */
  WEBHOOK_ALLOW_PRIVATE_URLS: z.enum(['true', 'false']).transform((v) => v === 'true').optional(),
});

export type Config = Omit<z.infer<typeof schema>, 'PAYMENT_PROCESSOR' | 'ENCRYPTION_KEY' | 'WEBHOOK_ALLOW_PRIVATE_URLS'> & {
  PAYMENT_PROCESSOR: 'sandbox';
  ENCRYPTION_KEY: string;
  WEBHOOK_ALLOW_PRIVATE_URLS: boolean;
  production: boolean;
};

export class ConfigError extends Error {}

const secretVariables = new Set(['ENCRYPTION_KEY']);

/** Reads every setting from the environment; throws a ConfigError naming each bad variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const blankAsUnset = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== ''));
  const parsed = schema.safeParse(blankAsUnset);
  if (!parsed.success) {
    // A malformed secret is still a secret: name the variable, never echo its value.
    const shown = (name: string) => (secretVariables.has(name) ? '<redacted>' : JSON.stringify(env[name]));
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message} (got ${shown(String(i.path[0]))})`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const production = parsed.data.NODE_ENV === 'production';
  if (production && !parsed.data.PAYMENT_PROCESSOR) {
    throw new ConfigError(
      'Invalid configuration:\n  PAYMENT_PROCESSOR: required in production; the only processor built in is the sandbox, set PAYMENT_PROCESSOR=sandbox to run with simulated payments',
    );
  }
  const encryptionKey = parsed.data.ENCRYPTION_KEY;
  if (production && (!encryptionKey || encryptionKey === DEVELOPMENT_ENCRYPTION_KEY)) {
    throw new ConfigError(
      'Invalid configuration:\n  ENCRYPTION_KEY: required in production (32 random bytes, base64: openssl rand -base64 32); it encrypts webhook signing secrets and stored idempotent answers at rest',
    );
  }
  return {
    ...parsed.data,
    PAYMENT_PROCESSOR: parsed.data.PAYMENT_PROCESSOR ?? 'sandbox',
    ENCRYPTION_KEY: encryptionKey ?? DEVELOPMENT_ENCRYPTION_KEY,
    WEBHOOK_ALLOW_PRIVATE_URLS: parsed.data.WEBHOOK_ALLOW_PRIVATE_URLS ?? !production,
    production,
  };
}
