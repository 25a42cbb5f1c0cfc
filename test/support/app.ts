import type { FastifyInstance } from 'fastify';
import { afterAll } from 'vitest';
import { buildApp } from '../../src/app.ts';
import type { Db } from '../../src/db/client.ts';
import type { PaymentProcessor } from '../../src/domain/payment-processor.ts';
import type { WebhookAppOptions } from '../../src/webhooks/settings.ts';

export interface TestApp {
  app: FastifyInstance;
  /** REST call with a bearer key (or explicit headers). */
  rest(method: 'GET' | 'POST' | 'DELETE', url: string, options?: { key?: string; headers?: Record<string, string>; body?: unknown }): Promise<{ status: number; body: any; headers: Record<string, unknown> }>;
  /** GraphQL POST with a bearer key. */
  gql(query: string, variables?: Record<string, unknown>, options?: { key?: string; headers?: Record<string, string> }): Promise<{ status: number; body: any }>;
}

/** Builds the app on `db` (closed after the file's tests) and returns small call helpers. */
export interface StartOptions {
  production?: boolean;
  now?: () => Date;
  payments?: PaymentProcessor;
  holdTtlSeconds?: number;
  waitlistOfferTtlSeconds?: number;
  /**
   * Webhook settings. The dispatcher runs only when a test asks (`dispatch: true`), so tests that look
   * at pending deliveries see them as queued, untouched by a background sender.
   */
  webhooks?: WebhookAppOptions;
}

export async function startApp(db: Db, options: StartOptions = {}): Promise<TestApp> {
  const app = await buildApp({
    db,
    config: { production: options.production ?? false, LOG_LEVEL: 'silent', HOLD_TTL_SECONDS: options.holdTtlSeconds ?? 900, WAITLIST_OFFER_TTL_SECONDS: options.waitlistOfferTtlSeconds ?? 86_400 },
    now: options.now,
    payments: options.payments,
    webhooks: { dispatch: false, ...options.webhooks },
  });
  afterAll(() => app.close());
  const auth = (key?: string): Record<string, string> => (key ? { authorization: `Bearer ${key}` } : {});
  return {
    app,
    async rest(method, url, { key, headers, body } = {}) {
      const res = await app.inject({ method, url, headers: { ...auth(key), ...headers }, ...(body === undefined ? {} : { payload: body as object }) });
      return { status: res.statusCode, body: res.body ? res.json() : undefined, headers: res.headers };
    },
    async gql(query, variables, { key, headers } = {}) {
      const res = await app.inject({
        method: 'POST',
        url: '/graphql',
        headers: { 'content-type': 'application/json', ...auth(key), ...headers },
        payload: { query, variables },
      });
      return { status: res.statusCode, body: res.json() };
    },
  };
}
