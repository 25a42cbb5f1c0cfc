/**
 * The executable schema: schema/ with its resolvers, built as an Apollo Federation 2 subgraph
 * (@apollo/subgraph), so the same /graphql serves clients directly and a router composing Tessera with
 * other subgraphs (`_service { sdl }`, `_entities`; docs/supergraph.md). Apollo runs
 * queries and mutations on it with the compiled executor; the live transports (src/graphql/live) run
 * subscriptions on the same schema object.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildSubgraphSchema } from '@apollo/subgraph';
import { parse, type GraphQLSchema } from 'graphql';
import { resolvers } from './resolvers/index.ts';

const schemaDir = join(dirname(fileURLToPath(import.meta.url)), '../../schema');

/** The SDL contract: every file of schema/, in name order. */
export function loadTypeDefs(): string {
  return readdirSync(schemaDir)
    .filter((f) => f.endsWith('.graphql'))
    .sort()
    .map((f) => readFileSync(join(schemaDir, f), 'utf8'))
    .join('\n');
}

/** schema/ and its resolvers, with the federation fields (`_service`, `_entities`) a subgraph answers. */
export function buildTesseraSchema(): GraphQLSchema {
  return buildSubgraphSchema({ typeDefs: parse(loadTypeDefs()), resolvers: resolvers as never });
}
