import { describe, expect, it } from 'vitest';
import { ConfigError, DEVELOPMENT_ENCRYPTION_KEY, loadConfig } from '../../../src/config.ts';

const webhookKey = Buffer.alloc(32, 7).toString('base64');

describe('loadConfig', () => {
  it('uses the documented defaults', () => {
    expect(loadConfig({})).toEqual({
      PORT: 4000,
      HOST: '127.0.0.1',
      DATABASE_URL: './data/tessera.sqlite',
      DATABASE_POOL_SIZE: 10,
      DATABASE_CONNECT_TIMEOUT_MS: 5_000,
      WRITE_QUEUE_TIMEOUT_MS: 2_000,
      NODE_ENV: 'development',
      LOG_LEVEL: 'info',
      HOLD_TTL_SECONDS: 900,
      PUBLISHABLE_HOLD_TTL_SECONDS: 300,
      PUBLISHABLE_HOLD_PLACES_PER_CLIENT: 10,
      WAITLIST_OFFER_TTL_SECONDS: 86_400,
      PAYMENT_PROCESSOR: 'sandbox',
      ENCRYPTION_KEYS: [DEVELOPMENT_ENCRYPTION_KEY],
      WEBHOOK_TIMEOUT_MS: 10_000,
      WEBHOOK_RETRY_BASE_SECONDS: 10,
      WEBHOOK_MAX_AGE_SECONDS: 259_200,
      WEBHOOK_CONCURRENCY: 32,
      WEBHOOK_ENDPOINT_CONCURRENCY: 4,
      WEBHOOK_DISABLE_AFTER_SECONDS: 259_200,
      WEBHOOK_ALLOW_PRIVATE_URLS: true,
      GRAPHQL_MAX_DEPTH: 15,
      GRAPHQL_MAX_ALIASES: 30,
      GRAPHQL_MAX_DIRECTIVES: 50,
      GRAPHQL_MAX_TOKENS: 2_000,
      GRAPHQL_PUBLIC_MAX_AGE_SECONDS: 30,
      GRAPHQL_MAX_DOCUMENT_BYTES: 32_768,
      GRAPHQL_MAX_COST: 5_000,
      GRAPHQL_SECRET_KEY_MAX_COST: 500_000,
      GRAPHQL_MAX_RESPONSE_BYTES: 4_194_304,
      SHUTDOWN_TIMEOUT_MS: 10_000,
      SHUTDOWN_DRAIN_MS: 0,
      READINESS_TIMEOUT_MS: 2_000,
      READINESS_CACHE_MS: 1_000,
      RATE_LIMIT_PER_MINUTE: 600,
      RATE_LIMIT_ANONYMOUS_PER_MINUTE: 60,
      RATE_LIMIT_PUBLISHABLE_CLIENT_PER_MINUTE: 120,
      REQUEST_TIMEOUT_MS: 30_000,
      KEEP_ALIVE_TIMEOUT_MS: 5_000,
      CONNECTION_TIMEOUT_MS: 60_000,
      MAX_HEADER_BYTES: 16_384,
      WRITE_QUEUE_LIMIT: 64,
      RESPONSE_CACHE_MAX_BYTES: 33_554_432,
      HEAP_GROWING_PERCENT: 50,
      TRUST_PROXY: [],
      CORS_ORIGINS: [],
      REFUND_RECONCILE_INTERVAL_MS: 30_000,
      LIVE_CATCH_UP_INTERVAL_MS: 2_000,
      LIVE_MAX_SUBSCRIPTIONS_PER_CONNECTION: 100,
      LIVE_MAX_CONNECTIONS_PER_KEY: 200,
      LIVE_KEEP_ALIVE_MS: 12_000,
      LIVE_MAX_BUFFERED_BYTES: 1_048_576,
      REFUND_RECONCILE_GRACE_SECONDS: 60,
      REFUND_RECONCILE_RETRY_BASE_SECONDS: 60,
      REFUND_RECONCILE_MAX_AGE_SECONDS: 82_800,
      HUMAN_CHECK_PROVIDER: 'sandbox',
      HUMAN_CHECK_TIMEOUT_MS: 5_000,
      production: false,
    });
  });

  it('reads the refund reconciliation settings and refuses unusable ones', () => {
    expect(
      loadConfig({
        REFUND_RECONCILE_INTERVAL_MS: '500',
        REFUND_RECONCILE_GRACE_SECONDS: '1.5',
        REFUND_RECONCILE_RETRY_BASE_SECONDS: '0.2',
        REFUND_RECONCILE_MAX_AGE_SECONDS: '3600',
      }),
    ).toMatchObject({
      REFUND_RECONCILE_INTERVAL_MS: 500,
      REFUND_RECONCILE_GRACE_SECONDS: 1.5,
      REFUND_RECONCILE_RETRY_BASE_SECONDS: 0.2,
      REFUND_RECONCILE_MAX_AGE_SECONDS: 3600,
    });
    expect(() => loadConfig({ REFUND_RECONCILE_INTERVAL_MS: '0' })).toThrow(/REFUND_RECONCILE_INTERVAL_MS/);
    expect(() => loadConfig({ REFUND_RECONCILE_GRACE_SECONDS: '0' })).toThrow(/REFUND_RECONCILE_GRACE_SECONDS/);
    expect(() => loadConfig({ REFUND_RECONCILE_RETRY_BASE_SECONDS: 'soon' })).toThrow(/REFUND_RECONCILE_RETRY_BASE_SECONDS/);
    expect(() => loadConfig({ REFUND_RECONCILE_MAX_AGE_SECONDS: String(8 * 86_400) })).toThrow(/REFUND_RECONCILE_MAX_AGE_SECONDS/);
  });

  it('treats an empty variable as unset and production as production', () => {
    expect(
      loadConfig({ PORT: '', NODE_ENV: 'production', PAYMENT_PROCESSOR: 'sandbox', ENCRYPTION_KEY: webhookKey, DATABASE_URL: ':memory:' }),
    ).toMatchObject({
      PORT: 4000,
      production: true,
      DATABASE_URL: ':memory:',
      ENCRYPTION_KEYS: [webhookKey],
      WEBHOOK_ALLOW_PRIVATE_URLS: false,
    });
  });

  it('refuses production without its own webhook secret key', () => {
    expect(() => loadConfig({ NODE_ENV: 'production', PAYMENT_PROCESSOR: 'sandbox' })).toThrow(/ENCRYPTION_KEY: required in production/);
    expect(() => loadConfig({ NODE_ENV: 'production', PAYMENT_PROCESSOR: 'sandbox', ENCRYPTION_KEY: DEVELOPMENT_ENCRYPTION_KEY })).toThrow(
      /ENCRYPTION_KEY: required in production/,
    );
  });

  it('takes a PostgreSQL URL, and refuses any other URL rather than taking it for a file name, without echoing its password', () => {
    expect(loadConfig({ DATABASE_URL: 'postgres://tessera:s3cret@db.internal:5432/tessera' }).DATABASE_URL).toBe(
      'postgres://tessera:s3cret@db.internal:5432/tessera',
    );
    expect(loadConfig({ DATABASE_URL: 'postgresql://db.internal/tessera?sslmode=verify-full' }).DATABASE_URL).toBe(
      'postgresql://db.internal/tessera?sslmode=verify-full',
    );
    expect(() => loadConfig({ DATABASE_URL: 'mysql://tessera:s3cret@localhost/tessera' })).toThrow(
      'DATABASE_URL: must be a SQLite file path or file: URL, :memory:, or a PostgreSQL URL (postgres://user:password@host:5432/database) (got "mysql://tessera:<redacted>@localhost/tessera")',
    );
    expect(() => loadConfig({ DATABASE_URL: 'postgres://tessera:s3cret@[bad' })).toThrow(/DATABASE_URL: must be a SQLite file path/);
    // A Unix socket, in libpq's two forms: no host and the folder in `host`, or the folder percent-encoded as the host.
    for (const socket of [
      'postgres://tessera:s3cret@/tessera?host=/var/run/postgresql',
      'postgresql:///tessera?host=/var/run/postgresql',
      'postgres://tessera:s3cret@%2Fvar%2Frun%2Fpostgresql/tessera',
    ]) {
      expect(loadConfig({ DATABASE_URL: socket }).DATABASE_URL).toBe(socket);
    }
    expect(loadConfig({ DATABASE_URL: './data/other.sqlite' }).DATABASE_URL).toBe('./data/other.sqlite');
  });

  it('takes a SQLite file: URL as the path it names, and refuses one it could not honour', () => {
    for (const [url, path] of [
      ['file:./data/dev.sqlite', './data/dev.sqlite'],
      ['file:dev.sqlite', 'dev.sqlite'],
      ['file:/srv/tessera/main.sqlite', '/srv/tessera/main.sqlite'],
      ['file:///srv/tessera/main.sqlite', '/srv/tessera/main.sqlite'],
      ['FILE://localhost/srv/my%20data.sqlite', '/srv/my data.sqlite'],
    ]) {
      expect(loadConfig({ DATABASE_URL: url }).DATABASE_URL).toBe(path);
    }
    // SQLite's options (read-only, shared cache) would be silently dropped; another host is not this machine; a broken escape is no path.
    for (const url of [
      'file:./dev.sqlite?mode=ro',
      'file:///srv/main.sqlite#x',
      'file://db.internal/srv/main.sqlite',
      'file:%zz.sqlite',
      'file:///srv/a%2Fb.sqlite',
      'file:',
    ]) {
      expect(() => loadConfig({ DATABASE_URL: url })).toThrow(/DATABASE_URL: must be a SQLite file path or file: URL/);
    }
  });

  it('reads DATABASE_POOL_SIZE, a whole number of connections from 1 to 100', () => {
    expect(loadConfig({ DATABASE_POOL_SIZE: '1' }).DATABASE_POOL_SIZE).toBe(1);
    expect(loadConfig({ DATABASE_POOL_SIZE: '100' }).DATABASE_POOL_SIZE).toBe(100);
    for (const bad of ['0', '101', '2.5', 'ten']) {
      expect(() => loadConfig({ DATABASE_POOL_SIZE: bad })).toThrow(`DATABASE_POOL_SIZE: `);
    }
    expect(() => loadConfig({ DATABASE_POOL_SIZE: '0' })).toThrow('(got "0")');
  });

  it('reads the write queue and connect limits as whole numbers in their ranges', () => {
    expect(loadConfig({ WRITE_QUEUE_LIMIT: '1', WRITE_QUEUE_TIMEOUT_MS: '10', DATABASE_CONNECT_TIMEOUT_MS: '100' })).toMatchObject({
      WRITE_QUEUE_LIMIT: 1,
      WRITE_QUEUE_TIMEOUT_MS: 10,
      DATABASE_CONNECT_TIMEOUT_MS: 100,
    });
    for (const [name, bad] of [
      ['WRITE_QUEUE_LIMIT', '0'],
      ['WRITE_QUEUE_LIMIT', '2.5'],
      ['WRITE_QUEUE_TIMEOUT_MS', '9'],
      ['DATABASE_CONNECT_TIMEOUT_MS', '99'],
      ['DATABASE_CONNECT_TIMEOUT_MS', 'soon'],
    ] as const) {
      expect(() => loadConfig({ [name]: bad })).toThrow(`${name}: `);
    }
  });

  it('reads GRAPHQL_PUBLIC_MAX_AGE_SECONDS as whole seconds from 0 (never kept) to 3600', () => {
    expect(loadConfig({ GRAPHQL_PUBLIC_MAX_AGE_SECONDS: '0' }).GRAPHQL_PUBLIC_MAX_AGE_SECONDS).toBe(0);
    expect(loadConfig({ GRAPHQL_PUBLIC_MAX_AGE_SECONDS: '3600' }).GRAPHQL_PUBLIC_MAX_AGE_SECONDS).toBe(3600);
    for (const bad of ['-1', '3601', '1.5', 'short']) {
      expect(() => loadConfig({ GRAPHQL_PUBLIC_MAX_AGE_SECONDS: bad })).toThrow('GRAPHQL_PUBLIC_MAX_AGE_SECONDS: ');
    }
  });

  it('reads CORS_ORIGINS as browsers send origins, and refuses anything else', () => {
    expect(loadConfig({ CORS_ORIGINS: 'https://Shop.Example, http://localhost:5173' }).CORS_ORIGINS).toEqual([
      'https://shop.example',
      'http://localhost:5173',
    ]);
    expect(() => loadConfig({ CORS_ORIGINS: 'https://shop.example/app' })).toThrow(
      'CORS_ORIGINS: "https://shop.example/app" is not an origin: write it as scheme://host[:port], without a path, e.g. https://shop.example (got "https://shop.example/app")',
    );
  });

  it('reads a keyring from ENCRYPTION_KEYS, newest first, and refuses a ring it cannot use', () => {
    const older = Buffer.alloc(32, 8).toString('base64');
    expect(loadConfig({ ENCRYPTION_KEYS: `${webhookKey}, ${older}` }).ENCRYPTION_KEYS).toEqual([webhookKey, older]);
    expect(
      loadConfig({ NODE_ENV: 'production', PAYMENT_PROCESSOR: 'sandbox', ENCRYPTION_KEYS: `${webhookKey},${older}` }).ENCRYPTION_KEYS,
    ).toEqual([webhookKey, older]);
    expect(() => loadConfig({ ENCRYPTION_KEYS: `${webhookKey},${webhookKey}` })).toThrow(
      'ENCRYPTION_KEYS: lists a key twice (got <redacted>)',
    );
    expect(() => loadConfig({ ENCRYPTION_KEYS: `${webhookKey},` })).toThrow(
      'ENCRYPTION_KEYS: must list keys of 32 bytes, base64 encoded (openssl rand -base64 32), comma-separated, newest first (got <redacted>)',
    );
    expect(() => loadConfig({ ENCRYPTION_KEYS: webhookKey, ENCRYPTION_KEY: older })).toThrow(
      'ENCRYPTION_KEYS: set it or ENCRYPTION_KEY, not both',
    );
    expect(() =>
      loadConfig({ NODE_ENV: 'production', PAYMENT_PROCESSOR: 'sandbox', ENCRYPTION_KEYS: `${webhookKey},${DEVELOPMENT_ENCRYPTION_KEY}` }),
    ).toThrow(/ENCRYPTION_KEY: required in production .* never the public development key/);
  });

  it('names a malformed webhook secret key without echoing it', () => {
    const tooShort = Buffer.alloc(16, 1).toString('base64');
    expect(() => loadConfig({ ENCRYPTION_KEY: tooShort })).toThrow(
      'ENCRYPTION_KEY: must be 32 bytes, base64 encoded (openssl rand -base64 32) (got <redacted>)',
    );
  });

  it('reads the webhook delivery settings', () => {
    expect(
      loadConfig({
        WEBHOOK_TIMEOUT_MS: '2500',
        WEBHOOK_RETRY_BASE_SECONDS: '0.5',
        WEBHOOK_MAX_AGE_SECONDS: '3600',
        WEBHOOK_ALLOW_PRIVATE_URLS: 'false',
        WEBHOOK_CONCURRENCY: '64',
        WEBHOOK_ENDPOINT_CONCURRENCY: '2',
        WEBHOOK_DISABLE_AFTER_SECONDS: '86400',
      }),
    ).toMatchObject({
      WEBHOOK_TIMEOUT_MS: 2500,
      WEBHOOK_RETRY_BASE_SECONDS: 0.5,
      WEBHOOK_MAX_AGE_SECONDS: 3600,
      WEBHOOK_ALLOW_PRIVATE_URLS: false,
      WEBHOOK_CONCURRENCY: 64,
      WEBHOOK_ENDPOINT_CONCURRENCY: 2,
      WEBHOOK_DISABLE_AFTER_SECONDS: 86_400,
    });
    expect(() => loadConfig({ WEBHOOK_ALLOW_PRIVATE_URLS: 'yes' })).toThrow(/WEBHOOK_ALLOW_PRIVATE_URLS/);
    expect(() => loadConfig({ WEBHOOK_ENDPOINT_CONCURRENCY: '0' })).toThrow(/WEBHOOK_ENDPOINT_CONCURRENCY/);
    expect(() => loadConfig({ WEBHOOK_DISABLE_AFTER_SECONDS: '10' })).toThrow(/WEBHOOK_DISABLE_AFTER_SECONDS/);
  });

  it('reads the human-check provider: the sandbox outside production, never in it; Turnstile with its secret', () => {
    const production = { NODE_ENV: 'production', PAYMENT_PROCESSOR: 'sandbox', ENCRYPTION_KEY: Buffer.alloc(32, 7).toString('base64') };
    expect(loadConfig(production).HUMAN_CHECK_PROVIDER).toBeUndefined();
    expect(() => loadConfig({ ...production, HUMAN_CHECK_PROVIDER: 'sandbox' })).toThrow(
      /HUMAN_CHECK_PROVIDER: the sandbox passes any script/,
    );
    expect(
      loadConfig({ HUMAN_CHECK_PROVIDER: 'turnstile', TURNSTILE_SECRET_KEY: '0x4AAAAAAA-secret', HUMAN_CHECK_TIMEOUT_MS: '2000' }),
    ).toMatchObject({
      HUMAN_CHECK_PROVIDER: 'turnstile',
      TURNSTILE_SECRET_KEY: '0x4AAAAAAA-secret',
      HUMAN_CHECK_TIMEOUT_MS: 2000,
    });
    expect(() => loadConfig({ HUMAN_CHECK_PROVIDER: 'turnstile' })).toThrow(
      /TURNSTILE_SECRET_KEY: required with HUMAN_CHECK_PROVIDER=turnstile/,
    );
    expect(() => loadConfig({ HUMAN_CHECK_PROVIDER: 'hcaptcha' })).toThrow(/HUMAN_CHECK_PROVIDER/);
    const bad = () => loadConfig({ HUMAN_CHECK_PROVIDER: 'turnstile', TURNSTILE_SECRET_KEY: 'has a space' });
    expect(bad).toThrow(/TURNSTILE_SECRET_KEY: .*\(got <redacted>\)/);
  });

  it('refuses production without an explicit payment processor, so simulated payments are never a silent default', () => {
    expect(() => loadConfig({ NODE_ENV: 'production' })).toThrow(/PAYMENT_PROCESSOR: required in production/);
  });

  it('reads the HTTP protections and refuses values that would switch them off', () => {
    expect(
      loadConfig({
        RATE_LIMIT_PER_MINUTE: '100',
        RATE_LIMIT_ANONYMOUS_PER_MINUTE: '5',
        RATE_LIMIT_PUBLISHABLE_CLIENT_PER_MINUTE: '20',
        REQUEST_TIMEOUT_MS: '2000',
        KEEP_ALIVE_TIMEOUT_MS: '1000',
        CONNECTION_TIMEOUT_MS: '9000',
        MAX_HEADER_BYTES: '8192',
        TRUST_PROXY: '10.0.0.0/8, loopback',
      }),
    ).toMatchObject({
      RATE_LIMIT_PER_MINUTE: 100,
      RATE_LIMIT_ANONYMOUS_PER_MINUTE: 5,
      RATE_LIMIT_PUBLISHABLE_CLIENT_PER_MINUTE: 20,
      REQUEST_TIMEOUT_MS: 2000,
      KEEP_ALIVE_TIMEOUT_MS: 1000,
      CONNECTION_TIMEOUT_MS: 9000,
      MAX_HEADER_BYTES: 8192,
      TRUST_PROXY: ['10.0.0.0/8', 'loopback'],
    });
    expect(() => loadConfig({ RATE_LIMIT_PER_MINUTE: '0' })).toThrow(/RATE_LIMIT_PER_MINUTE/);
    expect(() => loadConfig({ RATE_LIMIT_PUBLISHABLE_CLIENT_PER_MINUTE: '0' })).toThrow(/RATE_LIMIT_PUBLISHABLE_CLIENT_PER_MINUTE/);
    expect(() => loadConfig({ REQUEST_TIMEOUT_MS: '0' })).toThrow(/REQUEST_TIMEOUT_MS/);
    expect(() => loadConfig({ TRUST_PROXY: 'everyone' })).toThrow(/TRUST_PROXY/);
  });

  it('names every bad variable and its value', () => {
    expect(() => loadConfig({ PORT: '99999', LOG_LEVEL: 'loud' })).toThrow(ConfigError);
    try {
      loadConfig({ PORT: '99999', LOG_LEVEL: 'loud' });
    } catch (error) {
      expect((error as Error).message).toMatch(/^Invalid configuration:\n {2}PORT: .* \(got "99999"\)\n {2}LOG_LEVEL: .* \(got "loud"\)$/);
    }
  });
});
