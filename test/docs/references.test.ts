/**
 * What the docs name must exist: every repository path in backquotes (`src/...`, `test/...`), every
 * relative link, every `npm run <script>`, and every file a source comment names by its bare name (`items.ts`). A rename that
 * leaves a page or a comment pointing nowhere fails here instead of misleading the next reader.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '../..');
const skipped = new Set(['node_modules', '.git', 'dist', 'data', 'coverage']);

function filesUnder(dir: string): string[] {
  return readdirSync(join(root, dir), { withFileTypes: true }).flatMap((entry) => {
    if (skipped.has(entry.name)) return [];
    const path = dir === '.' ? entry.name : `${dir}/${entry.name}`;
    return entry.isDirectory() ? filesUnder(path) : [path];
  });
}

const repositoryFiles = filesUnder('.');
const fileNames = new Set(repositoryFiles.map((path) => basename(path)));
const pages = ['README.md', 'ARCHITECTURE.md', ...repositoryFiles.filter((path) => /^docs\/[^/]+\.md$/.test(path))];
const scripts = Object.keys((JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { scripts: object }).scripts);

/** Files the docs name that a command writes (generated types, bench results) or that a reader creates. */
const writtenByCommands = [/\/__generated__\//, /^bench\/results\//];
const readersOwnFiles = new Set(['supergraph.graphql', 'gateway.config.ts', 'router.yaml', 'supergraph.yaml', 'schema.graphql']);
const repositoryPath = /^(?:src|test|docs|bench|examples|fixtures|contract|drizzle|schema|\.ci)\/[\w./-]*$/;

function quoted(text: string): string[] {
  return [...text.matchAll(/`([^`\s]+)`/g)].map((match) => match[1]!.replace(/[:#].*$/, '').replace(/[),.;]+$/, ''));
}

describe('the docs name only what exists', () => {
  it.each(pages)('%s: every repository path and npm script it names exists', (page) => {
    const text = readFileSync(join(root, page), 'utf8');
    const missingPaths = quoted(text)
      .filter((token) => repositoryPath.test(token) && !writtenByCommands.some((pattern) => pattern.test(token)))
      .filter((path) => !existsSync(join(root, path)));
    const missingScripts = [...text.matchAll(/npm run ([\w:-]+)/g)].map((match) => match[1]!).filter((name) => !scripts.includes(name));
    expect({ missingPaths, missingScripts }).toEqual({ missingPaths: [], missingScripts: [] });
  });

  it.each(pages)('%s: every relative link leads to a file', (page) => {
    const text = readFileSync(join(root, page), 'utf8');
    const broken = [...text.matchAll(/\]\(([^)\s]+)\)/g)]
      .map((match) => match[1]!.split('#')[0]!)
      .filter((target) => target && !/^[a-z]+:/.test(target))
      .filter((target) => !existsSync(join(root, dirname(page), target)));
    expect(broken).toEqual([]);
  });

  it('every file a source comment names by its bare name exists', () => {
    const sources = repositoryFiles.filter((path) => /^(?:src|test|bench|examples)\/.*\.m?ts$/.test(path));
    const dangling = sources.flatMap((path) =>
      readFileSync(join(root, path), 'utf8')
        .split('\n')
        .filter((line) => /^\s*(?:\/\/|\*|\/\*\*)/.test(line))
        .flatMap((line) => [...line.matchAll(/\b([\w-]+\.(?:ts|graphql))\b/g)].map((match) => match[1]!))
        .filter((name) => name !== 'test.ts' && !fileNames.has(name) && !readersOwnFiles.has(name))
        .map((name) => `${path}: ${name}`),
    );
    expect(dangling).toEqual([]);
  });
});
