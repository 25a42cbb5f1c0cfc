/**
 * What the docs name must exist: every repository path in backquotes (`src/...`, `test/...`), every
 * relative link, every `npm run <script>`, and every file a source comment names by its bare name (`items.ts`). A rename that
 * leaves a page or a comment pointing nowhere fails here instead of misleading the next reader.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import GithubSlugger from 'github-slugger';
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

/** The anchors GitHub gives a page's headings (`## Checkout, bookings and refunds` -> `checkout-bookings-and-refunds`). */
function headingSlugs(path: string): Set<string> {
  const slugger = new GithubSlugger();
  const headings = readFileSync(path, 'utf8')
    .replace(/^```[\s\S]*?^```/gm, '')
    .split('\n')
    .filter((line) => /^#{1,6} /.test(line));
  return new Set(headings.map((line) => slugger.slug(line.replace(/^#+ /, '').replace(/`/g, ''))));
}

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

  it.each(pages)('%s: every relative link leads to a file, and its #fragment to a heading there', (page) => {
    const text = readFileSync(join(root, page), 'utf8');
    const broken = [...text.matchAll(/\]\(([^)\s]+)\)/g)]
      .map((match) => match[1]!)
      .filter((target) => !/^[a-z]+:/.test(target))
      .filter((target) => {
        const [file, fragment] = target.split('#') as [string, string | undefined];
        const path = file ? join(root, dirname(page), file) : join(root, page);
        if (!existsSync(path)) return true;
        return fragment !== undefined && path.endsWith('.md') && !headingSlugs(path).has(fragment);
      });
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
