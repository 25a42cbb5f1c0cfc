import { z } from 'zod';

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
});

export type Config = Omit<z.infer<typeof schema>, 'PAYMENT_PROCESSOR'> & { PAYMENT_PROCESSOR: 'sandbox'; production: boolean };

export class ConfigError extends Error {}

/** Reads every setting from the environment; throws a ConfigError naming each bad variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const blankAsUnset = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== ''));
  const parsed = schema.safeParse(blankAsUnset);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message} (got ${JSON.stringify(env[String(i.path[0])])})`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const production = parsed.data.NODE_ENV === 'production';
  if (production && !parsed.data.PAYMENT_PROCESSOR) {
    throw new ConfigError(
      'Invalid configuration:\n  PAYMENT_PROCESSOR: required in production; the only processor built in is the sandbox, set PAYMENT_PROCESSOR=sandbox to run with simulated payments',
    );
  }
  return { ...parsed.data, PAYMENT_PROCESSOR: parsed.data.PAYMENT_PROCESSOR ?? 'sandbox', production };
}
