/**
 * A Stripe-compatible HTTP server of the tests' own on 127.0.0.1, so the real `stripe` SDK runs with no
 * network: the few endpoints Tessera calls, answering Stripe's documented object shapes (PaymentIntent,
 * Refund, the error envelope), honouring Idempotency-Key as Stripe does (a repeated key replays the first
 * answer), recording every request with its Idempotency-Key and Stripe-Account headers, and failing on
 * demand (`failNext`). Webhooks are signed as Stripe signs them, with the SDK's own test header.
 */
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import Stripe from 'stripe';
import { afterAll } from 'vitest';

export interface RecordedRequest {
  method: string;
  path: string;
  idempotencyKey: string | null;
  stripeAccount: string | null;
  params: Record<string, string>;
}

export interface FakeIntent {
  id: string;
  object: 'payment_intent';
  amount: number;
  currency: string;
  status: 'requires_payment_method' | 'processing' | 'succeeded' | 'canceled';
  client_secret: string;
  metadata: Record<string, string>;
  livemode: false;
  created: number;
  /** The connected account it was created on (not a Stripe field; the fake's own bookkeeping). */
  account: string | null;
}

export interface FakeRefund {
  id: string;
  object: 'refund';
  amount: number;
  currency: string;
  payment_intent: string;
  status: 'pending' | 'succeeded' | 'failed' | 'canceled';
  metadata: Record<string, string>;
  created: number;
}

export const WEBHOOK_SECRET = 'whsec_test_tessera_fake';
export const SECRET_KEY = 'sk_test_tessera_fake';

const id = (prefix: string) => `${prefix}_${randomBytes(12).toString('hex')}`;

/** Stripe's form encoding, `metadata[cartId]=...`, as flat keys. */
function formParams(body: string): Record<string, string> {
  return Object.fromEntries(new URLSearchParams(body));
}

function metadataOf(params: Record<string, string>): Record<string, string> {
  const metadata: Record<string, string> = {};
  for (const [key, value] of Object.entries(params)) {
    const match = /^metadata\[(.+)\]$/.exec(key);
    if (match) metadata[match[1]!] = value;
  }
  return metadata;
}

export class FakeStripe {
  readonly requests: RecordedRequest[] = [];
  readonly intents = new Map<string, FakeIntent>();
  readonly refunds = new Map<string, FakeRefund>();
  /** The status new refunds are created with (Stripe answers `pending` for some payment methods). */
  refundStatus: FakeRefund['status'] = 'succeeded';
  private failures: Array<{ status: number; type: string }> = [];
  private readonly replays = new Map<string, { status: number; body: unknown }>();
  private server: Server | null = null;
  url = '';

  async start(): Promise<this> {
    this.server = createServer((req, res) => void this.handle(req, res));
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    afterAll(async () => this.stop());
    return this;
  }

  async stop(): Promise<void> {
    const server = this.server;
    this.server = null;
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  /** The next `count` requests are answered `status` (500: Stripe's api_error; 429: rate_limit_error). */
  failNext(count: number, status = 500): void {
    for (let i = 0; i < count; i++) this.failures.push({ status, type: status === 429 ? 'rate_limit_error' : 'api_error' });
  }

  /** The recorded requests to `method path` (a path prefix ending in `*` matches any rest). */
  calls(method: string, path: string): RecordedRequest[] {
    return this.requests.filter(
      (r) => r.method === method && (path.endsWith('*') ? r.path.startsWith(path.slice(0, -1)) : r.path === path),
    );
  }

  /** The shopper pays the intent (as Stripe.js confirming it would). */
  pay(intentId: string): FakeIntent {
    const intent = this.intents.get(intentId)!;
    intent.status = 'succeeded';
    return intent;
  }

  /** The intent of a Tessera reference (`pi_...` or `acct_.../pi_...`). */
  intentOf(reference: string): FakeIntent {
    return this.intents.get(reference.slice(reference.indexOf('/') + 1))!;
  }

  /** The intent whose client secret is `secret` (what the browser holds). */
  intentBySecret(secret: string): FakeIntent {
    return [...this.intents.values()].find((i) => i.client_secret === secret)!;
  }

  /** A webhook delivery as Stripe sends it: the event body and its `Stripe-Signature`, signed at `at`. */
  webhook(
    type: string,
    object: object,
    options: { at?: Date; account?: string | null; secret?: string; eventId?: string } = {},
  ): { body: string; headers: Record<string, string> } {
    const event = {
      id: options.eventId ?? id('evt'),
      object: 'event',
      api_version: '2025-01-01',
      created: Math.floor((options.at ?? new Date()).getTime() / 1000),
      type,
      livemode: false,
      pending_webhooks: 1,
      request: { id: null, idempotency_key: null },
      data: { object },
      ...(options.account ? { account: options.account } : {}),
    };
    const body = JSON.stringify(event);
    const header = Stripe.webhooks.generateTestHeaderString({
      payload: body,
      secret: options.secret ?? WEBHOOK_SECRET,
      timestamp: Math.floor((options.at ?? new Date()).getTime() / 1000),
    });
    return { body, headers: { 'content-type': 'application/json', 'stripe-signature': header } };
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    let body = '';
    for await (const chunk of req) body += String(chunk);
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const header = (name: string) => {
      const value = req.headers[name];
      return typeof value === 'string' ? value : null;
    };
    const recorded: RecordedRequest = {
      method: req.method ?? 'GET',
      path: url.pathname,
      idempotencyKey: header('idempotency-key'),
      stripeAccount: header('stripe-account'),
      params: formParams(body),
    };
    this.requests.push(recorded);
    const send = (status: number, answer: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json', 'request-id': id('req') });
      res.end(JSON.stringify(answer));
    };
    const failure = this.failures.shift();
    if (failure) {
      send(failure.status, { error: { type: failure.type, message: 'The fake Stripe failed on purpose' } });
      return;
    }
    const replayKey =
      recorded.idempotencyKey && recorded.method === 'POST' ? `${recorded.stripeAccount ?? ''} ${recorded.idempotencyKey}` : null;
    const replay = replayKey ? this.replays.get(replayKey) : undefined;
    if (replay) {
      send(replay.status, replay.body);
      return;
    }
    const [status, answer] = this.answer(recorded);
    if (replayKey && status < 500) this.replays.set(replayKey, { status, body: answer });
    send(status, answer);
  }

  private answer(r: RecordedRequest): [number, unknown] {
    const notFound: [number, unknown] = [
      404,
      { error: { type: 'invalid_request_error', code: 'resource_missing', message: 'No such object' } },
    ];
    const now = Math.floor(Date.now() / 1000);
    if (r.method === 'POST' && r.path === '/v1/payment_intents') {
      const intentId = id('pi');
      const intent: FakeIntent = {
        id: intentId,
        object: 'payment_intent',
        amount: Number(r.params.amount),
        currency: r.params.currency!,
        status: 'requires_payment_method',
        client_secret: `${intentId}_secret_${randomBytes(12).toString('hex')}`,
        metadata: metadataOf(r.params),
        livemode: false,
        created: now,
        account: r.stripeAccount,
      };
      this.intents.set(intentId, intent);
      return [200, intent];
    }
    const intentPath = /^\/v1\/payment_intents\/([^/]+)(\/cancel)?$/.exec(r.path);
    if (intentPath) {
      const intent = this.intents.get(intentPath[1]!);
      if (!intent || intent.account !== r.stripeAccount) return notFound;
      if (!intentPath[2]) return r.method === 'GET' ? [200, intent] : notFound;
      if (intent.status === 'succeeded' || intent.status === 'canceled' || intent.status === 'processing') {
        return [
          400,
          {
            error: {
              type: 'invalid_request_error',
              code: 'payment_intent_unexpected_state',
              message: `You cannot cancel this PaymentIntent because it has a status of ${intent.status}.`,
            },
          },
        ];
      }
      intent.status = 'canceled';
      return [200, intent];
    }
    if (r.method === 'POST' && r.path === '/v1/refunds') {
      const intent = this.intents.get(r.params.payment_intent ?? '');
      if (!intent || intent.account !== r.stripeAccount) return notFound;
      if (intent.status !== 'succeeded') {
        return [400, { error: { type: 'invalid_request_error', code: 'charge_not_refundable', message: 'This payment was not captured' } }];
      }
      const refund: FakeRefund = {
        id: id('re'),
        object: 'refund',
        amount: Number(r.params.amount),
        currency: intent.currency,
        payment_intent: intent.id,
        status: this.refundStatus,
        metadata: metadataOf(r.params),
        created: now,
      };
      this.refunds.set(refund.id, refund);
      return [200, { ...refund }];
    }
    const refundPath = /^\/v1\/refunds\/([^/]+)$/.exec(r.path);
    if (refundPath && r.method === 'GET') {
      const refund = this.refunds.get(refundPath[1]!);
      return refund ? [200, refund] : notFound;
    }
    return notFound;
  }
}
