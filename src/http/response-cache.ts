/**
 * A cache of whole answers for catalogue reads (brand settings, featured listings, experiences, their
 * questions, reviews and hosts), on both faces. A hit is sent before the route runs — before Apollo for
 * GraphQL — while everything in front of the route still runs: request id, rate limit, authentication,
 * validation, the access line and the metrics.
 *
 * Correct under writes: every entry belongs to a data version (`Database.dataVersion`) that changes with any
 * committed write to a table these answers may read, by this gateway or another on the same database, and
 * is served only to requests that start from that same version; an answer computed while a write landed is
 * not kept, since it may predate the write. So a cached answer is always the answer the route would give.
 * Bookings and what they write leave the version as it was (src/db/unversioned-tables.ts; no answer kept
 * here reads them, test/api/http/cached-answers-read.test.ts), so the cache keeps its answers through them.
 *
 * Keyed by the API key and brand header (answers depend on the caller's scope) and by the request
 * itself: the URL for REST, the raw JSON body and Accept header for GraphQL. Only 200 answers are kept, and
 * only from a request's second answer on (ResponseCache's doorkeeper).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { LRUCache } from 'lru-cache';
import type { Principal } from '../domain/access/principal.ts';
import type { CacheableOperation } from '../graphql/cacheable.ts';
import type { Api } from '../observability/metrics.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route's 200 answers depend only on the stored data, the caller's key and the URL. */
    responseCache?: boolean;
  }
}

interface CachedAnswer {
  body: Buffer;
  contentType: string;
  cacheControl: string | undefined;
  contentLanguage: string | undefined;
  /** REST reads of an object that can be written back: its version (`ETag`), for `If-Match`. */
  etag?: string | undefined;
  /** GraphQL answers: the operation, for the access line and the metrics. */
  operation: CacheableOperation | undefined;
}

/** Larger GraphQL bodies are not worth keying on (the document limit is 32 KiB by default). */
const MAX_KEYED_BODY = 64 * 1024;

/**
 * Requests seen once and not kept are remembered (their keys only) in up to this share of the budget:
 * an answer is kept the second time it is computed within that window, never the first.
 */
const SEEN_SHARE = 8;

export class ResponseCache {
  readonly #entries: LRUCache<string, CachedAnswer & { generation: string }>;
  /**
   * Keys asked once, not kept yet (a doorkeeper, as TinyLFU's): a request never repeated — a variable
   * changed on every call, by a client or by someone flushing the cache with a public key — never enters
   * the cache, so it neither evicts the answers asked again and again nor fills the budget with answers
   * nobody asks twice. A repeated request is kept at its second answer.
   */
  readonly #seen: LRUCache<string, true>;
  readonly #currentGeneration: () => Promise<string>;
  #latest = '';

  constructor(currentGeneration: () => Promise<string>, maxBytes: number) {
    this.#currentGeneration = currentGeneration;
    this.#entries = new LRUCache({
      maxSize: maxBytes,
      maxEntrySize: Math.max(1, Math.floor(maxBytes / 16)),
      sizeCalculation: (answer, key) => answer.body.length + key.length * 2 + 200,
    });
    const seenBytes = Math.max(1, Math.floor(maxBytes / SEEN_SHARE));
    this.#seen = new LRUCache({
      maxSize: seenBytes,
      maxEntrySize: seenBytes,
      sizeCalculation: (_, key) => key.length * 2 + 100,
    });
  }

  /** The answer kept for `key` from the data `generation` the request started from, if any. */
  get(key: string, generation: string): CachedAnswer | undefined {
    const answer = this.#entries.get(key);
    return answer?.generation === generation ? answer : undefined;
  }

  /**
   * Keeps `answer`, computed from the data of `generation`, unless something was written since (the
   * answer may predate the write). Entries of older generations can never be served again: dropped.
   */
  async set(key: string, generation: string, answer: CachedAnswer): Promise<void> {
    if ((await this.#currentGeneration()) !== generation) return;
    if (generation !== this.#latest) {
      // The answers kept were asked more than once: after a write they are kept again at their next answer.
      for (const kept of this.#entries.keys()) this.#seen.set(kept, true);
      this.#entries.clear();
      this.#latest = generation;
    }
    if (!this.#seen.delete(key) && !this.#entries.has(key)) {
      this.#seen.set(key, true);
      return;
    }
    this.#entries.set(key, { ...answer, generation });
  }

  get size(): number {
    return this.#entries.size;
  }
}

export interface ResponseCacheHooks {
  cache: ResponseCache;
  /** The request's principal (already authenticated in front of the route): null without a key, throws for bad ones. */
  principalOf(request: FastifyRequest): Promise<Principal | null>;
  /** The data version the request started from (data-version.ts). */
  generationOf(request: FastifyRequest): Promise<string>;
  countLookup(api: Api, outcome: 'hit' | 'miss'): void;
  replayedOperation(request: FastifyRequest, operation: CacheableOperation, seconds: number): void;
}

interface Lookup {
  key: string;
  generation: string;
  api: Api;
}

const lookups = new WeakMap<FastifyRequest, Lookup>();
const cacheableOperations = new WeakMap<FastifyRequest, CacheableOperation>();

/** For the GraphQL plugin (src/graphql/cacheable.ts): this request's answer may be kept. */
export function markCacheable(request: FastifyRequest, operation: CacheableOperation): void {
  cacheableOperations.set(request, operation);
}

function cacheableApi(request: FastifyRequest): Api | null {
  if (request.method === 'GET' && request.routeOptions.config.responseCache === true) return 'rest';
  if (
    request.method === 'POST' &&
    request.routeOptions.url === '/graphql' &&
    request.headers['idempotency-key'] === undefined &&
    typeof request.rawBody === 'string' &&
    request.rawBody.length <= MAX_KEYED_BODY
  ) {
    return 'graphql';
  }
  return null;
}

function keyOf(request: FastifyRequest, api: Api, principal: Principal): string {
  const scope = `${principal.keyId}\n${principal.headerBrandId ?? ''}`;
  return api === 'rest' ? `rest\n${scope}\n${request.url}` : `graphql\n${scope}\n${request.headers.accept ?? ''}\n${request.rawBody}`;
}

function replay(reply: FastifyReply, answer: CachedAnswer): FastifyReply {
  reply.header('content-type', answer.contentType);
  if (answer.cacheControl !== undefined) reply.header('cache-control', answer.cacheControl);
  if (answer.contentLanguage !== undefined) reply.header('content-language', answer.contentLanguage);
  if (answer.etag !== undefined) reply.header('etag', answer.etag);
  return reply.send(answer.body);
}

/** Installs the lookup (a preHandler, after authentication and validation) and the keeping (onSend). */
export function installResponseCache(app: FastifyInstance, hooks: ResponseCacheHooks): void {
  const { cache } = hooks;
  app.addHook('preHandler', async (request, reply) => {
    const api = cacheableApi(request);
    if (!api) return;
    let principal: Principal | null;
    let generation: string;
    try {
      principal = await hooks.principalOf(request);
      generation = await hooks.generationOf(request);
    } catch {
      // Bad credentials or a database failure: the route itself answers it, as without the cache.
      return;
    }
    if (!principal) return;
    const key = keyOf(request, api, principal);
    const answer = cache.get(key, generation);
    if (answer) {
      hooks.countLookup(api, 'hit');
      if (answer.operation) hooks.replayedOperation(request, answer.operation, reply.elapsedTime / 1000);
      return replay(reply, answer);
    }
    // A GraphQL request is known to be a cacheable read only once it has run (cacheable.ts): a mutation or a
    // query beyond the catalogue is no miss, and is counted in onSend if it turns out to be one.
    if (api === 'rest') hooks.countLookup(api, 'miss');
    lookups.set(request, { key, generation, api });
  });

  app.addHook('onSend', async (request, reply, payload) => {
    const lookup = lookups.get(request);
    if (!lookup) return payload;
    const operation = lookup.api === 'graphql' ? cacheableOperations.get(request) : undefined;
    if (lookup.api === 'graphql') {
      if (!operation) return payload;
      hooks.countLookup('graphql', 'miss');
    }
    if (reply.statusCode !== 200) return payload;
    const contentType = reply.getHeader('content-type');
    if (typeof contentType !== 'string' || !(typeof payload === 'string' || Buffer.isBuffer(payload))) return payload;
    const cacheControl = reply.getHeader('cache-control');
    const contentLanguage = reply.getHeader('content-language');
    const etag = reply.getHeader('etag');
    // The bytes kept are the bytes sent: one copy of a string answer, not a second when Node writes it.
    const body = Buffer.isBuffer(payload) ? payload : Buffer.from(payload);
    try {
      await cache.set(lookup.key, lookup.generation, {
        body,
        contentType,
        cacheControl: typeof cacheControl === 'string' ? cacheControl : undefined,
        contentLanguage: typeof contentLanguage === 'string' ? contentLanguage : undefined,
        etag: typeof etag === 'string' ? etag : undefined,
        operation,
      });
    } catch (error) {
      // Keeping the answer needs the data version; without it the answer is simply not kept, never changed.
      request.log.warn({ err: error }, 'response cache: answer not kept (the data version could not be read)');
    }
    return body;
  });
}
