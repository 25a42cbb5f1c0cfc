/**
 * Peer P2: Mercurius on Fastify 5 with graphql-jit compiling every query from its first run (`jit: 1`),
 * on Tessera's schema (built by @graphql-tools as Apollo builds it, so scalars and enum values
 * behave the same), resolvers, database and context.
 */
import { makeExecutableSchema } from '@graphql-tools/schema';
import Fastify from 'fastify';
import mercurius from 'mercurius';
import { announceReady, exitWithParent, listenOn } from '../servers/child.ts';
import { loadTypeDefs, peerContext, resolvers } from './shared.ts';

exitWithParent();
const context = peerContext();
const schema = makeExecutableSchema({ typeDefs: loadTypeDefs(), resolvers: resolvers as never });
const app = Fastify();
await app.register(mercurius, { schema, jit: 1, context: (request) => context({ id: request.id, headers: request.headers }) });
await app.listen(listenOn);
announceReady(app.server);
