/**
 * Trusted documents mode: the server runs only the operations listed in an Apollo persisted query
 * manifest (`{ format: "apollo-persisted-query-manifest", version: 1, operations: [{ id, name, type,
 * body }] }`, as `generate-persisted-query-manifest` writes it), whose ids are the SHA-256 of the bodies.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { ConfigError } from '../../config.ts';

export interface TrustedDocuments {
  /** The operation body with this id (the SHA-256 of the body), if it is in the manifest. */
  body(id: string): string | undefined;
  /** Whether this query text is in the manifest. */
  trusts(query: string): boolean;
}

export function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

const operationTypes = new Set(['query', 'mutation', 'subscription']);

function invalid(file: string, problem: string): ConfigError {
  return new ConfigError(`Invalid configuration:\n  GRAPHQL_TRUSTED_DOCUMENTS: ${problem} (file ${JSON.stringify(file)})`);
}

function readJson(file: string): unknown {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw invalid(file, `cannot read the manifest: ${(error as NodeJS.ErrnoException).code ?? 'unreadable'}`);
  }
  try {
    return JSON.parse(text);
  } catch {
    throw invalid(file, 'the manifest is not valid JSON');
  }
}

/** Each operation's problem, or null when it is well formed and its id is the SHA-256 of its body. */
function operationProblem(op: unknown): string | null {
  if (typeof op !== 'object' || op === null) return 'is not an object';
  const { id, name, type, body } = op as Record<string, unknown>;
  if (typeof body !== 'string' || body.trim() === '') return 'has no "body"';
  if (typeof name !== 'string') return 'has no "name"';
  if (typeof type !== 'string' || !operationTypes.has(type)) return '"type" must be query, mutation or subscription';
  if (typeof id !== 'string' || id !== sha256(body)) return '"id" must be the SHA-256 (hex) of its body';
  return null;
}

/** Reads and checks the manifest; a ConfigError names the first problem, so the server never starts half-trusting. */
export function loadTrustedDocuments(file: string): TrustedDocuments {
  const manifest = readJson(file) as Record<string, unknown> | null;
  if (manifest?.format !== 'apollo-persisted-query-manifest') throw invalid(file, '"format" must be "apollo-persisted-query-manifest"');
  if (manifest.version !== 1) throw invalid(file, '"version" must be 1');
  const operations = manifest.operations;
  if (!Array.isArray(operations) || operations.length === 0) throw invalid(file, '"operations" must list at least one operation');
  const bodies = new Map<string, string>();
  operations.forEach((op: unknown, index) => {
    const problem = operationProblem(op);
    if (problem) throw invalid(file, `operations[${index}] ${problem}`);
    const { id, body } = op as { id: string; body: string };
    bodies.set(id, body);
  });
  return {
    body: (id) => bodies.get(id),
    trusts: (query) => bodies.has(sha256(query)),
  };
}

/**
 * Apollo's persisted query cache in trusted mode: a hash alone finds its manifest body, and nothing else
 * can be registered. Apollo prefixes keys (`apq:<hash>`); the hash is whatever follows the last colon.
 */
export function trustedDocumentsCache(documents: TrustedDocuments) {
  return {
    async get(key: string): Promise<string | undefined> {
      return documents.body(key.slice(key.lastIndexOf(':') + 1));
    },
    async set(): Promise<void> {},
    async delete(): Promise<boolean> {
      return false;
    },
  };
}
