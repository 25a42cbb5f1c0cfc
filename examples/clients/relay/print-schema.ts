/**
 * Writes Tessera's schema as one SDL file (`__generated__/schema.graphql`, git-ignored) for
 * relay-compiler, which reads a single file (or a directory whose files it cannot merge `extend type`
 * across). `npx tsx examples/clients/relay/print-schema.ts`, then `npx relay-compiler` in this directory.
 */
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildASTSchema, parse, printSchema } from 'graphql';

const here = dirname(fileURLToPath(import.meta.url));
const schemaDir = join(here, '../../../schema');

/** The schema in schema/*.graphql, merged and printed. */
export function printedSchema(): string {
  const sdl = readdirSync(schemaDir)
    .filter((file) => file.endsWith('.graphql'))
    .sort()
    .map((file) => readFileSync(join(schemaDir, file), 'utf8'))
    .join('\n');
  return printSchema(buildASTSchema(parse(sdl)));
}

/** Writes it where relay.config.json in `dir` expects it. */
export function writeSchema(dir: string = here): void {
  // relay-compiler writes its artifacts beside it, into a directory that must exist.
  mkdirSync(join(dir, '__generated__/relay'), { recursive: true });
  writeFileSync(join(dir, '__generated__/schema.graphql'), printedSchema());
}

if (process.argv[1] === fileURLToPath(import.meta.url)) writeSchema();
