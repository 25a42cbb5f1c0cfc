/**
 * Peer P1: Apollo Server 5 as its documentation starts it (`startStandaloneServer`, no options), on
 * Tessera's schema, resolvers, database and context.
 */
import { ApolloServer } from '@apollo/server';
import { startStandaloneServer } from '@apollo/server/standalone';
import type { GraphQLContext } from '../../src/graphql/context.ts';
import { announcePort, exitWithParent, listenOn } from '../servers/child.ts';
import { loadTypeDefs, peerContext, resolvers } from './shared.ts';

exitWithParent();
const context = peerContext();
const server = new ApolloServer<GraphQLContext>({ typeDefs: loadTypeDefs(), resolvers });
let requests = 0;
const { url } = await startStandaloneServer(server, {
  listen: listenOn,
  context: async ({ req }) => context({ id: ++requests, headers: req.headers }),
});
announcePort(Number(new URL(url).port));
