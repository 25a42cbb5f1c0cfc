/* global React, ReactDOM, GraphiQL, document */
// Starts GraphiQL against this server's /graphql. Every request needs an API key: the headers editor
// opens with an Authorization header to fill in (the demo data's Lisbon key). Headers are not persisted:
// a secret key can cancel and refund, so it is not left in the browser's localStorage.
const fetcher = GraphiQL.createFetcher({ url: '/graphql' });
const defaultHeaders = JSON.stringify({ Authorization: 'Bearer sk_test_lisbon_demo' }, null, 2);
ReactDOM.createRoot(document.getElementById('graphiql')).render(
  React.createElement(GraphiQL, {
    fetcher,
    defaultHeaders,
    defaultEditorToolsVisibility: 'headers',
    shouldPersistHeaders: false,
  }),
);
