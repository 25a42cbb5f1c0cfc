// Hive Gateway in front of Tessera and the company's other subgraphs:
// `npx @graphql-hive/gateway supergraph supergraph.graphql` reads this file as ./gateway.config.ts.
const propagated = ['authorization', 'tessera-brand-id', 'origin', 'tessera-human-check', 'x-forwarded-for'];

export const gatewayConfig = {
  // Queries and mutations go to Tessera over HTTP with the caller's headers, as if the client had called it.
  propagateHeaders: {
    fromClientToSubgraphs({ request, subgraphName }: { request: Request; subgraphName: string }) {
      if (subgraphName !== 'tessera') return {};
      const headers: Record<string, string> = { 'tessera-router-token': process.env.TESSERA_ROUTER_TOKEN! };
      for (const name of propagated) {
        const value = request.headers.get(name);
        if (value) headers[name] = value;
      }
      return headers;
    },
  },
  // Subscriptions go to Tessera over WebSocket (graphql-ws), one connection per caller's key: the key of an
  // HTTP (SSE) client's Authorization header or of a WebSocket client's connection_init.
  transportEntries: {
    tessera: {
      options: {
        subscriptions: {
          kind: 'ws',
          location: '/graphql',
          headers: [['origin', '{context.headers.origin}']],
          options: { connectionParams: { authorization: '{context.headers.authorization}' } },
        },
      },
    },
  },
};
