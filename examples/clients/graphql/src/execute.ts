import type { TypedDocumentString } from './__generated__/graphql.ts';

/** A GraphQL error as Tessera answers it: `extensions.code` is one of the schema's ErrorCode values. */
export class GraphQLRequestError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly field?: string,
  ) {
    super(`${code}: ${message}${field ? ` (${field})` : ''}`);
  }
}

export interface Connection {
  /** The gateway, e.g. `http://127.0.0.1:4000`. */
  baseUrl: string;
  /** A brand or organization secret key. */
  apiKey: string;
}

/** Sends one typed operation to `/graphql`; the answer's type is the operation's, generated from the schema. */
export async function execute<TResult, TVariables>(
  connection: Connection,
  document: TypedDocumentString<TResult, TVariables>,
  variables: TVariables,
): Promise<TResult> {
  const response = await fetch(new URL('/graphql', connection.baseUrl), {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/graphql-response+json, application/json',
      authorization: `Bearer ${connection.apiKey}`,
    },
    body: JSON.stringify({ query: document.toString(), variables }),
  });
  const body = (await response.json()) as {
    data?: TResult | null;
    errors?: Array<{ message: string; extensions?: { code?: string; field?: string } }>;
  };
  const [error] = body.errors ?? [];
  if (error) throw new GraphQLRequestError(error.extensions?.code ?? 'UNKNOWN', error.message, error.extensions?.field);
  if (body.data == null) throw new GraphQLRequestError('UNKNOWN', `HTTP ${response.status} without data`);
  return body.data;
}
