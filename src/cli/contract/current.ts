/**
 * The contract Tessera publishes now, as clients read it: the GraphQL SDL its /graphql serves (every file
 * of schema/, printed in a stable order, so a baseline's diff shows only real changes) and the OpenAPI
 * document GET /openapi.json answers.
 */
import { buildSchema, execute, lexicographicSortSchema, parse, printSchema } from 'graphql';
import { buildApp } from '../../app.ts';
import { loadConfig } from '../../config.ts';
import { connect } from '../../db/connect.ts';
import { buildTesseraSchema, loadTypeDefs } from '../../graphql/schema.ts';
import type { OpenApiDocument } from './openapi-changes.ts';

export function currentGraphQLSdl(): string {
  return `${printSchema(lexicographicSortSchema(buildSchema(loadTypeDefs())))}\n`;
}

/** The subgraph SDL a router reads (`_service { sdl }`), as /graphql answers it. */
export async function currentSubgraphSdl(): Promise<string> {
  const result = await execute({ schema: buildTesseraSchema(), document: parse('{ _service { sdl } }') });
  const sdl = (result.data?._service as { sdl?: unknown } | undefined)?.sdl;
  if (typeof sdl !== 'string') throw new Error(`_service { sdl } answered no SDL: ${JSON.stringify(result.errors)}`);
  return `${sdl}\n`;
}

/** The document is made from the routes' schemas alone: an empty in-memory database is enough to serve it. */
export async function currentOpenApiDocument(): Promise<OpenApiDocument> {
  const { database } = await connect(':memory:');
  const app = await buildApp({ db: database, config: { ...loadConfig({}), LOG_LEVEL: 'silent' } });
  try {
    const answer = await app.inject({ method: 'GET', url: '/openapi.json' });
    if (answer.statusCode !== 200) throw new Error(`GET /openapi.json answered ${answer.statusCode}`);
    return answer.json<OpenApiDocument>();
  } finally {
    await app.close();
    await database.close();
  }
}
