/**
 * Apollo Client in development mode, for tests that turn its warnings into failures. Its builds read
 * `globalThis.__DEV__` when Node resolves them without the `development` condition (vitest loads them
 * that way): this module must be imported before anything that imports `@apollo/client`.
 */
Object.assign(globalThis, { __DEV__: true });
