/**
 * Defaults of the GraphQL limits. Kept apart from settings.ts so src/config.ts can read them without an
 * import cycle (settings.ts loads the trusted-documents manifest, which throws config.ts's ConfigError).
 */
export const graphqlDefaults = {
  /**
   * Field nesting, introspection included. Graphql 16's standard introspection query (the Sandbox's) is 15
   * deep; the deepest path our own schema allows is 10 (bookings > edges > node > participants >
   * customQuestionAnswers > question > config > conditions > rule), so 15 admits both and stops a cyclic
   * `__schema { types { fields { type { fields ...` long before it matters.
   */
  maxDepth: 15,
  maxAliases: 30,
  maxDirectives: 50,
  /**
   * Lexical tokens in one document. Validating a crafted document grows with the square of its size
   * (graphql's overlapping-fields check, which gives up after a fixed budget of work): measured here,
   * 2,000 tokens cost at most ~25 ms of CPU, 5,000 ~95 ms. The standard introspection query is ~170
   * tokens, our largest test query ~300.
   */
  maxTokens: 2_000,
  /** Bytes of the `query` text: catches what tokens do not count (comments, whitespace, long strings). */
  maxDocumentBytes: 32 * 1024,
  /**
   * Budget of the per-request cost (see cost.ts, list-sizes.ts): 16 pages of 100 reviews with their reviewers
   * (301 each), two weeks of an experience's sessions for 14 experiences (337 each), or one booking with every
   * field down to its participants' answers' question conditions (3758).
   */
  maxCost: 5_000,
  /**
   * The budget of a secret key (a partner's or the brand's own server, accountable and rate-limited per key):
   * GitHub's node limit. A page of 100 bookings with every field down to their answers' question conditions
   * (375,800) fits, as it did before every list counted; 25 aliases of `nodes` over 100 experiences with 90
   * days of sessions (5,402,500) does not. Publishable keys and requests without a key get `maxCost`.
   */
  secretKeyMaxCost: 500_000,
  /**
   * Bytes of a query's serialized answer, the backstop behind the cost budget (whose list bounds are
   * declared, not measured): 4 MiB is some twenty times the largest answer the budget admits on the demo
   * data, and well under the 5 to 20 MB answers that an uncounted list once let through.
   */
  maxResponseBytes: 4 * 1024 * 1024,
} as const;
