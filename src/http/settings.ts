/**
 * HTTP protections every answer goes through, on both faces: rate limits, timeouts, header sizes. The
 * configuration names them (src/config.ts); `buildApp` callers that pass no full config get the defaults.
 */
import type { Config } from '../config.ts';

export const httpDefaults = {
  rateLimitPerMinute: 600,
  anonymousRateLimitPerMinute: 60,
  publishableClientRateLimitPerMinute: 120,
  requestTimeoutMs: 30_000,
  keepAliveTimeoutMs: 5_000,
  connectionTimeoutMs: 60_000,
  maxHeaderBytes: 16 * 1024,
  writeQueueLimit: 64,
  responseCacheMaxBytes: 32 * 1024 * 1024,
  graphqlPublicMaxAgeSeconds: 30,
} as const;

/** Longest path parameter: ids are UUIDs (36 characters); a longer segment matches no route (404). */
export const MAX_PARAM_LENGTH = 100;

type HttpConfigKey =
  | 'RATE_LIMIT_PER_MINUTE'
  | 'RATE_LIMIT_ANONYMOUS_PER_MINUTE'
  | 'RATE_LIMIT_PUBLISHABLE_CLIENT_PER_MINUTE'
  | 'REQUEST_TIMEOUT_MS'
  | 'KEEP_ALIVE_TIMEOUT_MS'
  | 'CONNECTION_TIMEOUT_MS'
  | 'MAX_HEADER_BYTES'
  | 'WRITE_QUEUE_LIMIT'
  | 'RESPONSE_CACHE_MAX_BYTES'
  | 'GRAPHQL_PUBLIC_MAX_AGE_SECONDS'
  | 'TRUST_PROXY';

/** What the HTTP layer reads from the configuration; each setting falls back to its documented default. */
export type HttpConfig = Partial<Pick<Config, HttpConfigKey>>;

export interface HttpSettings {
  /** Requests per minute for each secret API key (a publishable key has none: its clients each have theirs). */
  rateLimitPerMinute: number;
  /** Requests per minute for each client address sending no valid API key. */
  anonymousRateLimitPerMinute: number;
  /** Requests per minute for each client address of a publishable key; the key as a whole has no budget a few clients could spend. */
  publishableClientRateLimitPerMinute: number;
  /** The whole request (headers and body) must arrive within this; else 408 and the connection closes. */
  requestTimeoutMs: number;
  /** An idle keep-alive connection is closed after this. */
  keepAliveTimeoutMs: number;
  /** A socket with no activity at all for this long is closed. */
  connectionTimeoutMs: number;
  /** Request line plus headers, in bytes; larger is 431. */
  maxHeaderBytes: number;
  /** Write requests taken at once, running or waiting; the next is 503 OVERLOADED at once (src/http/write-admission.ts). */
  writeQueueLimit: number;
  /** Memory for cached catalogue answers (src/http/response-cache.ts); 0 turns the cache off. */
  responseCacheMaxBytes: number;
  /** Proxies whose X-Forwarded-For is believed (addresses, CIDRs, `loopback`...); none by default. */
  trustProxy: string[];
  /** How long browsers and CDNs may keep public catalogue answers to GET /graphql (src/graphql/cache-control.ts); 0: never. */
  graphqlPublicMaxAgeSeconds: number;
}

export function httpSettings(config: HttpConfig): HttpSettings {
  return {
    rateLimitPerMinute: config.RATE_LIMIT_PER_MINUTE ?? httpDefaults.rateLimitPerMinute,
    anonymousRateLimitPerMinute: config.RATE_LIMIT_ANONYMOUS_PER_MINUTE ?? httpDefaults.anonymousRateLimitPerMinute,
    publishableClientRateLimitPerMinute:
      config.RATE_LIMIT_PUBLISHABLE_CLIENT_PER_MINUTE ?? httpDefaults.publishableClientRateLimitPerMinute,
    requestTimeoutMs: config.REQUEST_TIMEOUT_MS ?? httpDefaults.requestTimeoutMs,
    keepAliveTimeoutMs: config.KEEP_ALIVE_TIMEOUT_MS ?? httpDefaults.keepAliveTimeoutMs,
    connectionTimeoutMs: config.CONNECTION_TIMEOUT_MS ?? httpDefaults.connectionTimeoutMs,
    maxHeaderBytes: config.MAX_HEADER_BYTES ?? httpDefaults.maxHeaderBytes,
    writeQueueLimit: config.WRITE_QUEUE_LIMIT ?? httpDefaults.writeQueueLimit,
    responseCacheMaxBytes: config.RESPONSE_CACHE_MAX_BYTES ?? httpDefaults.responseCacheMaxBytes,
    trustProxy: config.TRUST_PROXY ?? [],
    graphqlPublicMaxAgeSeconds: config.GRAPHQL_PUBLIC_MAX_AGE_SECONDS ?? httpDefaults.graphqlPublicMaxAgeSeconds,
  };
}
