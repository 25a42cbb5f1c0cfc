/**
 * Apollo Server's CSRF prevention runs an operation only when the request could not have been sent
 * cross-site without a CORS preflight: a content type other than the three a form may send
 * (`application/x-www-form-urlencoded`, `multipart/form-data`, `text/plain`; GraphQL's JSON bodies pass),
 * or one of the headers below. A browser sends none of them on a simple request (they are not
 * CORS-safelisted), so a page on another origin cannot make a browser run an operation it could not
 * also have asked for openly, and the preflight asks src/http/cors.ts.
 *
 * Besides Apollo's own two, the credential headers: urql and Apollo Client send queries as
 * `GET /graphql?query=...` with the publishable key's `Authorization: Bearer pk_...` and no Apollo header,
 * and a request carrying a key forces a preflight in every browser just as well.
 */
export const csrfPreventionRequestHeaders = [
  // Apollo Server's defaults (recommendedCsrfPreventionRequestHeaders, which it does not export).
  'x-apollo-operation-name',
  'apollo-require-preflight',
  // The API key, in either form src/auth/authenticate.ts reads.
  'authorization',
  'tessera-secret-key',
];
