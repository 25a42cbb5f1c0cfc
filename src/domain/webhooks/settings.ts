/**
 * What the webhook area needs beyond the common Deps: the rules for target URLs, the key that keeps
 * signing secrets encrypted at rest, the delivery timings, and the port through which requests leave.
 */
import type { Keyring } from '../shared/encryption.ts';
import type { CallerDeps } from '../shared/deps.ts';

/** Every address `hostname` resolves to (IPv4 and IPv6); rejects when the name does not resolve. */
export type HostLookup = (hostname: string) => Promise<string[]>;

export interface WebhookUrlPolicy {
  /** Loopback, private and link-local targets are allowed (development); production refuses them (SSRF). */
  allowPrivateUrls: boolean;
  /** Only `https://` URLs (production), so payloads and signatures never travel in clear. */
  httpsOnly: boolean;
  lookup: HostLookup;
}

export interface WebhookSettings extends WebhookUrlPolicy {
  /** AES-256-GCM key (32 bytes) under which endpoint signing secrets are stored. */
  encryptionKeys: Keyring;
  /** How long one delivery attempt may take, connection to response headers. */
  timeoutMs: number;
  /** The first retry comes this many seconds after a failure; each later one waits twice as long. */
  retryBaseSeconds: number;
  /** A delivery still failing this long after its event is given up (`failed`). */
  maxAgeSeconds: number;
}

/** The caller's deps plus the webhook settings: what creating an endpoint needs. */
export type WebhookCallerDeps = CallerDeps & { webhooks: WebhookSettings };

/** One signed POST to a partner's endpoint. */
export interface WebhookRequest {
  url: string;
  headers: Record<string, string>;
  body: string;
  /** How long the whole attempt may take: connecting, sending, and the answer's status line and headers. */
  timeoutMs: number;
  /** When the attempt began (`performance.now()`), if before this request: the time since counts against `timeoutMs`. */
  startedAt?: number;
}

/**
 * The port through which deliveries leave the server. `send` resolves with the response status (any
 * status, redirects included: they are not followed) and rejects on timeouts and connection errors,
 * with a short message fit for the delivery log.
 */
export interface WebhookSender {
  send(request: WebhookRequest): Promise<{ status: number }>;
}
