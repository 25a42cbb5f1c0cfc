/* global React, ReactDOM, GraphiQL, document, location */
// Starts GraphiQL against this server's /graphql. Every request needs an API key: the headers editor
// opens with an Authorization header to fill in (the demo data's Lisbon key). Headers are not persisted:
// a secret key can cancel and refund, so it is not left in the browser's localStorage. Subscriptions run
// over a WebSocket on the same /graphql (graphql-ws, bundled in GraphiQL), whose connection_init payload
// GraphiQL fills with the headers editor's content: the same Authorization.
const fetcher = GraphiQL.createFetcher({
  url: '/graphql',
  subscriptionUrl: `${location.protocol === 'https:' ? 'wss:' : 'ws:'}//${location.host}/graphql`,
});
const defaultHeaders = JSON.stringify({ Authorization: 'Bearer sk_test_lisbon_demo' }, null, 2);
ReactDOM.createRoot(document.getElementById('graphiql')).render(
  React.createElement(GraphiQL, {
    fetcher,
    defaultHeaders,
    defaultEditorToolsVisibility: 'headers',
    shouldPersistHeaders: false,
  }),
);
