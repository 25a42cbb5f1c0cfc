/** The webhook settings and sender a server runs with: its configuration, overridden by `buildApp`'s options. */
import { DEVELOPMENT_ENCRYPTION_KEY, webhookDefaults, type Config } from '../config.ts';
import { keyring } from '../domain/shared/encryption.ts';
import type { DispatcherOptions } from '../domain/webhooks/dispatcher.ts';
import type { WebhookSender, WebhookSettings } from '../domain/webhooks/settings.ts';
import { lookupAll } from '../adapters/webhooks/dns.ts';
import { HttpSender } from '../adapters/webhooks/http-sender.ts';

type WebhookConfigKey =
  | 'ENCRYPTION_KEYS'
  | 'WEBHOOK_TIMEOUT_MS'
  | 'WEBHOOK_RETRY_BASE_SECONDS'
  | 'WEBHOOK_MAX_AGE_SECONDS'
  | 'WEBHOOK_ALLOW_PRIVATE_URLS'
  | 'WEBHOOK_CONCURRENCY'
  | 'WEBHOOK_ENDPOINT_CONCURRENCY'
  | 'WEBHOOK_DISABLE_AFTER_SECONDS';

/** What the webhook area reads from the configuration; each setting falls back to its documented default. */
export type WebhookConfig = Pick<Config, 'production'> & Partial<Pick<Config, WebhookConfigKey>>;

/** `buildApp`'s `webhooks` option: anything set here wins over the configuration (tests use it). */
export interface WebhookAppOptions extends Partial<Omit<DispatcherOptions, keyof WebhookSettings>>, Partial<WebhookSettings> {
  /** Where deliveries are sent; node:http by default. */
  sender?: WebhookSender;
  /** Whether the server delivers at all (true by default). */
  dispatch?: boolean;
}

export interface WebhookRuntime {
  settings: WebhookSettings;
  dispatcher: DispatcherOptions | null;
  sender: WebhookSender;
}

export function webhookRuntime(config: WebhookConfig, options: WebhookAppOptions = {}): WebhookRuntime {
  const { sender, dispatch, tickMs, concurrency, endpointConcurrency, disableAfterSeconds, leaseMarginMs, ...overrides } = options;
  const allowPrivateUrls = overrides.allowPrivateUrls ?? config.WEBHOOK_ALLOW_PRIVATE_URLS ?? !config.production;
  const settings: WebhookSettings = {
    encryptionKeys: keyring(config.ENCRYPTION_KEYS ?? [DEVELOPMENT_ENCRYPTION_KEY]),
    httpsOnly: config.production,
    lookup: lookupAll,
    timeoutMs: config.WEBHOOK_TIMEOUT_MS ?? webhookDefaults.timeoutMs,
    retryBaseSeconds: config.WEBHOOK_RETRY_BASE_SECONDS ?? webhookDefaults.retryBaseSeconds,
    maxAgeSeconds: config.WEBHOOK_MAX_AGE_SECONDS ?? webhookDefaults.maxAgeSeconds,
    ...overrides,
    allowPrivateUrls,
  };
  return {
    settings,
    dispatcher:
      dispatch === false
        ? null
        : {
            ...settings,
            tickMs,
            leaseMarginMs,
            concurrency: concurrency ?? config.WEBHOOK_CONCURRENCY ?? webhookDefaults.concurrency,
            endpointConcurrency: endpointConcurrency ?? config.WEBHOOK_ENDPOINT_CONCURRENCY ?? webhookDefaults.endpointConcurrency,
            disableAfterSeconds: disableAfterSeconds ?? config.WEBHOOK_DISABLE_AFTER_SECONDS ?? webhookDefaults.disableAfterSeconds,
          },
    sender: sender ?? new HttpSender({ allowPrivateAddresses: settings.allowPrivateUrls }),
  };
}
