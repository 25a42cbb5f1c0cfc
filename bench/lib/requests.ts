/** One HTTP request as the bench describes it, and a single call of it outside any load. */

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

export async function send(baseUrl: string, spec: RequestSpec): Promise<Answer> {
  const response = await fetch(baseUrl + spec.path, { method: spec.method, headers: spec.headers, body: spec.body });
  return {
    status: response.status,
    contentType: response.headers.get('content-type') ?? '',
    body: Buffer.from(await response.arrayBuffer()),
  };
}

/** The JSON body of a call that must succeed (2xx and, for GraphQL, no errors); throws otherwise. */
export async function sendOk<T>(baseUrl: string, spec: RequestSpec, what: string): Promise<T> {
  const answer = await send(baseUrl, spec);
  const text = answer.body.toString('utf8');
  const json = JSON.parse(text) as { errors?: unknown };
  if (answer.status < 200 || answer.status > 299 || hasGraphqlErrors(json)) {
    throw new Error(`${what}: ${spec.method} ${spec.path} answered ${answer.status}: ${text.slice(0, 500)}`);
  }
  return json as T;
}
