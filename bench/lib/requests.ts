/** One HTTP request as the bench describes it, and a single call of it outside any load. */
import http from 'node:http';

export interface RequestSpec {
  method: 'GET' | 'POST';
  path: string;
  headers: Record<string, string>;
  body?: string;
  /** Under load, the n-th request's body instead of `body` (answered with the same bytes): caches cannot serve it. */
  varyBody?: (n: number) => string;
}

export interface Answer {
  status: number;
  contentType: string;
  body: Buffer;
  /** The `Retry-After` header, when the answer has one. */
  retryAfter: string | null;
}

/** A 503 with `Retry-After`: the gateway turned the request away before doing anything (overloaded, or its database unavailable). */
export class RefusedError extends Error {
  constructor(
    message: string,
    readonly retryAfterSeconds: number,
  ) {
    super(message);
  }
}

export const bearer = (key: string) => ({ authorization: `Bearer ${key}` });

export function graphqlRequest(key: string, query: string, variables?: Record<string, unknown>): RequestSpec {
  return {
    method: 'POST',
    path: '/graphql',
    headers: { ...bearer(key), 'content-type': 'application/json' },
    body: JSON.stringify(variables ? { query, variables } : { query }),
  };
}

/** GraphQL reports failures in a non-empty `errors` list, whatever the status (REST's cancel has an `errors` list of its own, empty when all went well). */
export function hasGraphqlErrors(json: unknown): boolean {
  const errors = (json as { errors?: unknown } | null)?.errors;
  return Array.isArray(errors) && errors.length > 0;
}

/**
 * Connections kept open between calls, as a partner's HTTP client keeps them (closed before the server's
 * announced keep-alive timeout, Node's agent reading its `Keep-Alive` hint). node:http rather than
 * `fetch`: the write mix (T6) sends its requests through here from the bench's own process, which shares
 * the machine's two cores with the gateway and PostgreSQL, and `fetch` cost that process 1.1 to 2.6 ms of
 * CPU a booking against node:http's 0.3 to 1.1 (docs/performance.md, "Results").
 */
const agent = new http.Agent({ keepAlive: true });

export function send(baseUrl: string, spec: RequestSpec): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const request = http.request(baseUrl + spec.path, { method: spec.method, headers: spec.headers, agent }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('error', reject);
      response.on('end', () => {
        const retryAfter = response.headers['retry-after'];
        resolve({
          status: response.statusCode ?? 0,
          contentType: response.headers['content-type'] ?? '',
          body: Buffer.concat(chunks),
          retryAfter: retryAfter ?? null,
        });
      });
    });
    request.on('error', reject);
    request.end(spec.body);
  });
}

/** The JSON body of a call that must succeed (2xx and, for GraphQL, no errors); throws otherwise. */
export async function sendOk<T>(baseUrl: string, spec: RequestSpec, what: string): Promise<T> {
  const answer = await send(baseUrl, spec);
  const text = answer.body.toString('utf8');
  const json = JSON.parse(text) as { errors?: unknown };
  if (answer.status < 200 || answer.status > 299 || hasGraphqlErrors(json)) {
    const message = `${what}: ${spec.method} ${spec.path} answered ${answer.status}: ${text.slice(0, 500)}`;
    const retryAfter = Number(answer.retryAfter);
    if (answer.status === 503 && answer.retryAfter !== null && Number.isFinite(retryAfter)) throw new RefusedError(message, retryAfter);
    throw new Error(message);
  }
  return json as T;
}
