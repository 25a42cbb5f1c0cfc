/**
 * Live-update clients as users run them, against a listening gateway: `graphql-ws`'s client over a real
 * WebSocket (the `ws` package) and `graphql-sse`'s client over fetch. Each subscription is read as a
 * queue of results with deadlines, never with sleeps.
 */
import type { FastifyInstance } from 'fastify';
import { createClient as createWsClient, type Client as WsClient } from 'graphql-ws';
import { createClient as createSseClient, type Client as SseClient } from 'graphql-sse';
import WebSocket from 'ws';
import { afterAll } from 'vitest';

export interface Listening {
  http: string;
  ws: string;
}

/** Listens on a free port of 127.0.0.1 (the app is closed by startApp's afterAll). */
export async function listen(app: FastifyInstance): Promise<Listening> {
  await app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = app.server.address() as { port: number };
  return { http: `http://127.0.0.1:${port}`, ws: `ws://127.0.0.1:${port}/graphql` };
}

export interface Closed {
  code: number;
  reason: string;
}

/**
 * A graphql-ws client that does not retry, so each close is seen by the test. `lazy: false` connects at
 * once and stays connected with no subscription open.
 */
export function wsClient(
  url: string,
  options: { key?: string; params?: Record<string, unknown>; headers?: Record<string, string>; lazy?: boolean } = {},
): WsClient & { closed: Closed[] } {
  const closed: Closed[] = [];
  const headers = options.headers;
  class HeadersWebSocket extends WebSocket {
    constructor(address: string, protocols?: string | string[]) {
      super(address, protocols, headers ? { headers } : {});
    }
  }
  const client = createWsClient({
    url,
    webSocketImpl: HeadersWebSocket,
    retryAttempts: 0,
    lazy: options.lazy ?? true,
    // A refused or closed eager connection is in `closed`, for the test to check; not printed.
    onNonLazyError: () => {},
    connectionParams: { ...(options.key ? { authorization: `Bearer ${options.key}` } : {}), ...options.params },
    on: {
      closed: (event) => {
        const { code, reason } = event as { code: number; reason: string };
        closed.push({ code, reason: String(reason) });
      },
    },
  });
  afterAll(() => client.dispose());
  return Object.assign(client, { closed });
}

/** A graphql-sse client (distinct connections: one event stream per subscription) with the key in its headers. */
export function sseClient(http: string, options: { key?: string; headers?: Record<string, string> } = {}): SseClient {
  const client = createSseClient({
    url: `${http}/graphql/stream`,
    retryAttempts: 0,
    headers: { ...(options.key ? { authorization: `Bearer ${options.key}` } : {}), ...options.headers },
  });
  afterAll(() => client.dispose());
  return client;
}

/** Resolves once `count` subscriptions run on the gateway (their watches are registered), within 5 s. */
export async function subscriptionsRunning(app: FastifyInstance, count: number): Promise<void> {
  const deadline = Date.now() + 5_000;
  while (app.liveConnections.subscriptions !== count) {
    if (Date.now() > deadline) throw new Error(`${app.liveConnections.subscriptions} subscriptions running, not ${count}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/** Resolves once `client` is connected and acknowledged, or rejects with the close that refused it. */
export function connected(client: WsClient): Promise<void> {
  return new Promise((resolve, reject) => {
    const offConnected = client.on('connected', () => {
      offConnected();
      offClosed();
      resolve();
    });
    const offClosed = client.on('closed', (event) => {
      offConnected();
      offClosed();
      reject(event as Error);
    });
  });
}

export interface Result {
  data?: any;
  errors?: Array<{ message: string; extensions?: Record<string, unknown> }>;
}

/** One subscription's results as they come, and how it ended (completed, or failed with an error or a close). */
export class Subscription {
  private readonly results: Result[] = [];
  private readonly waiters: Array<() => void> = [];
  ended: { error?: unknown } | null = null;
  readonly dispose: () => void;

  constructor(subscribe: (sink: { next(r: Result): void; error(e: unknown): void; complete(): void }) => () => void) {
    this.dispose = subscribe({
      next: (result) => {
        this.results.push(result);
        this.wake();
      },
      error: (error) => {
        this.ended = { error };
        this.wake();
      },
      complete: () => {
        this.ended = {};
        this.wake();
      },
    });
    afterAll(() => this.dispose());
  }

  private wake() {
    for (const waiter of this.waiters.splice(0)) waiter();
  }

  private async until(ready: () => boolean, what: string, timeoutMs: number) {
    const deadline = Date.now() + timeoutMs;
    while (!ready()) {
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`no ${what} within ${timeoutMs} ms`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  /** The next result, within `timeoutMs`. */
  async next(timeoutMs = 5_000): Promise<Result> {
    await this.until(() => this.results.length > 0 || this.ended !== null, 'result', timeoutMs);
    const result = this.results.shift();
    if (!result) throw new Error(`the subscription ended instead: ${JSON.stringify(this.ended?.error ?? 'completed')}`);
    return result;
  }

  /** How it ended, within `timeoutMs`. */
  async end(timeoutMs = 5_000): Promise<{ error?: unknown }> {
    await this.until(() => this.ended !== null, 'end', timeoutMs);
    return this.ended!;
  }

  get pending(): number {
    return this.results.length;
  }
}

export function subscribe(client: WsClient | SseClient, query: string, variables: Record<string, unknown> = {}): Subscription {
  return new Subscription((sink) => client.subscribe({ query, variables }, sink as never));
}

/** The next value, within `ms` (a watch that stays silent fails the test rather than hanging it). */
export async function nextWithin<T>(iterator: AsyncIterator<T>, ms = 2000): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no value within ${ms} ms`)), ms);
  });
  try {
    const result = await Promise.race([iterator.next(), timeout]);
    if (result.done) throw new Error('the stream ended');
    return result.value;
  } finally {
    clearTimeout(timer);
  }
}
