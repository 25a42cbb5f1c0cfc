/**
 * Every page's examples, run as written against a real Tessera (`src/main.ts` on a fresh demo database,
 * 127.0.0.1): each ```sh block goes to bash with only the docs' `localhost:4000` (or `127.0.0.1:4000`)
 * replaced by the test server's origin, and each `# -> 201 {...}` comment under a curl call is checked
 * against what that call answered (the status, and the fields shown: a string with `...` matches any
 * text there, an object or array the members and items shown). A call without such a comment must not
 * fail (status below 400). Each ```graphql block is validated against the schema and, when it is a whole
 * operation, executed through POST /graphql with the key its comment names (`pk_test_...` or
 * `sk_test_...`) and its `variables: {...}`, and must answer without errors.
 *
 * A block that cannot run here is marked on its page by `<!-- example not run: <reason> -->` on the line
 * before it, and listed in `notRun` below: each exception is named and counted.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse, validate, type OperationDefinitionNode } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTesseraSchema } from '../../src/graphql/schema.ts';
import { testEngine } from '../support/db.ts';
import { createTestDatabase } from '../support/postgres.ts';
import { startServerProcess, stopServerProcess, type ServerProcess } from '../support/server-process.ts';

const root = join(import.meta.dirname, '../..');
const pages = [
  'README.md',
  ...readdirSync(join(root, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .sort()
    .map((name) => `docs/${name}`),
];

/** The blocks marked `<!-- example not run: ... -->`, as `page #n (lang): reason`. Add one only when it truly cannot run. */
const notRun = [
  'README.md #1 (sh): installs the dependencies and starts a server in the foreground; the test starts its own gateway as `npm start` does',
  'docs/postgresql.md #1 (sh): needs a PostgreSQL server of your own (db.internal) and starts a server in the foreground',
  'docs/supergraph.md #1 (sh): composes your own subgraphs (loyalty.internal, tessera.internal); test/api/federation/hive-gateway.test.ts composes Tessera with a second subgraph through the same library',
];

interface Block {
  page: string;
  /** 1-based, among the page's blocks of its kind (sh or graphql). */
  index: number;
  lang: 'sh' | 'graphql';
  code: string;
  notRun?: string;
}

function blocksOf(page: string): Block[] {
  const lines = readFileSync(join(root, page), 'utf8').split('\n');
  const blocks: Block[] = [];
  const counts = { sh: 0, graphql: 0 };
  for (let i = 0; i < lines.length; i++) {
    const fence = /^```(\w*)\s*$/.exec(lines[i]!);
    if (!fence) continue;
    const end = lines.findIndex((line, j) => j > i && line.startsWith('```'));
    const language = fence[1]!;
    const lang = ['sh', 'bash', 'shell'].includes(language) ? 'sh' : language === 'graphql' ? 'graphql' : null;
    if (lang) {
      const marker = /^<!-- example not run: (.+?) -->$/.exec(lines[i - 1] ?? '');
      blocks.push({ page, index: ++counts[lang], lang, code: lines.slice(i + 1, end).join('\n'), notRun: marker?.[1] });
    }
    i = end;
  }
  return blocks;
}

const blocks = pages.flatMap(blocksOf);
const name = (block: Block) => `${block.page} #${block.index} (${block.lang})`;

/** Whether `actual` shows what the page says it answers (`shown`, parsed from the comment). */
function shows(actual: unknown, shown: unknown): boolean {
  if (typeof shown === 'string' && /\.\.\.|…/.test(shown)) {
    const pattern = shown
      .split(/\.\.\.|…/)
      .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
      .join('.*');
    return typeof actual === 'string' && new RegExp(`^${pattern}$`, 's').test(actual);
  }
  if (Array.isArray(shown)) return Array.isArray(actual) && shown.every((item, i) => shows(actual[i], item));
  if (shown !== null && typeof shown === 'object') {
    if (actual === null || typeof actual !== 'object' || Array.isArray(actual)) return false;
    return Object.entries(shown).every(([key, value]) => shows((actual as Record<string, unknown>)[key], value));
  }
  return Object.is(actual, shown);
}

interface Expectation {
  /** 1-based: the curl call of the block it follows. */
  call: number;
  status?: number;
  body?: unknown;
  text: string;
}

/** The curl calls a block makes, counted in its text, and the `# -> ...` comments after them. */
function expectationsOf(code: string): { calls: number; expectations: Expectation[] } {
  let calls = 0;
  const expectations: Expectation[] = [];
  for (const line of code.split('\n')) {
    const comment = /^\s*# -> (?:(\d{3})\b)?\s*(.*)$/.exec(line);
    if (comment) {
      const body = comment[2]!.trim();
      expectations.push({
        call: calls,
        status: comment[1] ? Number(comment[1]) : undefined,
        body: body ? (JSON.parse(body) as unknown) : undefined,
        text: line.trim(),
      });
      continue;
    }
    if (/^\s*#/.test(line)) continue;
    calls += [...line.matchAll(/(?:^|[\s($|;&])curl\s/g)].length;
  }
  return { calls, expectations };
}

/** A `curl` for the examples: the real one, recording each call's status and body for the checks. */
const curlRecorder = `
set -euo pipefail
# Each command as it starts, into a file of its own (not stderr): the failure names the one that hung.
exec {trace}>"$EXAMPLE_LOG/trace"
BASH_XTRACEFD=$trace
set -x
curl() {
  local n=$(( $(cat "$EXAMPLE_LOG/count") + 1 ))
  echo "$n" > "$EXAMPLE_LOG/count"
  local status
  status=$(command curl "$@" -o "$EXAMPLE_LOG/$n.body" -w '%{http_code}')
  echo "$status" > "$EXAMPLE_LOG/$n.status"
  cat "$EXAMPLE_LOG/$n.body"
}
`;

let server: ServerProcess | undefined;
let work: string;
let database: string;
let dropDatabase: (() => Promise<void>) | undefined;

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'tessera-docs-examples-'));
  // SQLite here; the gateway on a fresh PostgreSQL database when the file runs in the postgresql project.
  if (testEngine === 'postgresql') ({ url: database, drop: dropDatabase } = await createTestDatabase());
  else database = join(work, 'tessera.sqlite');
  server = await startServerProcess(database, { LOG_LEVEL: 'warn' });
}, 60_000);

afterAll(async () => {
  await stopServerProcess(server);
  await dropDatabase?.();
  rmSync(work, { recursive: true, force: true });
});

describe('the examples not run are the ones named', () => {
  it('marks exactly the blocks listed', () => {
    expect(blocks.filter((block) => block.notRun).map((block) => `${name(block)}: ${block.notRun}`)).toEqual(notRun);
  });
});

/**
 * The runnable examples schedule and book on the test server's real clock: a date of theirs that has
 * passed fails its page. This names them half a year before, with what to do.
 */
const DATES_AHEAD_DAYS = 180;

describe('the runnable examples are dated ahead', () => {
  it(`dates every runnable sh example at least ${DATES_AHEAD_DAYS} days after today`, () => {
    const soon = new Date(Date.now() + DATES_AHEAD_DAYS * 86_400_000).toISOString().slice(0, 10);
    const tooSoon = blocks
      .filter((block) => block.lang === 'sh' && !block.notRun)
      .flatMap((block) => [...block.code.matchAll(/\b20\d\d-\d\d-\d\d\b/g)].map((match) => ({ block, date: match[0] })))
      .filter(({ date }) => date < soon)
      .map(({ block, date }) => `${name(block)}: ${date}`);
    expect(tooSoon, "move these examples' dates (and the answers shown) a few years ahead").toEqual([]);
  });
});

describe.each(pages.filter((page) => blocks.some((block) => block.page === page && !block.notRun)))('%s', (page) => {
  const runnable = blocks.filter((block) => block.page === page && !block.notRun);
  const schema = buildTesseraSchema();

  it.each(runnable.filter((block) => block.lang === 'sh').map((block) => [name(block), block] as const))(
    '%s runs and answers what it says',
    (_name, block) => {
      const { calls, expectations } = expectationsOf(block.code);
      const log = mkdtempSync(join(work, 'calls-'));
      writeFileSync(join(log, 'count'), '0');
      const script = block.code.replace(/\b(?:localhost|127\.0\.0\.1):4000\b/g, new URL(server!.url).host);
      // npm commands run in the clone, as a reader runs them; everything else in a directory of its own.
      const inClone = /\bnpm\s/.test(block.code);
      const cwd = inClone ? root : mkdtempSync(join(work, 'cwd-'));
      const before = new Set(readdirSync(root));
      const result = spawnSync('bash', ['-c', curlRecorder + script], {
        cwd,
        // The reader's shell: the server's database for the CLIs that open it (`npm run keys`).
        env: { ...process.env, NODE_ENV: 'development', DATABASE_URL: database, EXAMPLE_LOG: log },
        encoding: 'utf8',
        timeout: 120_000,
      });
      if (inClone) {
        // Files the example wrote into the clone (it names them): removed, as a reader would.
        for (const entry of readdirSync(root)) {
          if (!before.has(entry) && block.code.includes(entry) && statSync(join(root, entry)).isFile()) rmSync(join(root, entry));
        }
      }
      // On failure, what a reader would see: the signal that ended it (a timeout is SIGTERM with ETIMEDOUT), its output's
      // tail and the last commands it started.
      const ended =
        result.status === 0
          ? {}
          : {
              signal: result.signal,
              error: result.error?.message,
              stdout: result.stdout.slice(-2000),
              commands: readFileSync(join(log, 'trace'), 'utf8').slice(-2000),
            };
      expect({ status: result.status, stderr: result.status === 0 ? '' : result.stderr, ...ended }).toEqual({ status: 0, stderr: '' });
      const made = Number(readFileSync(join(log, 'count'), 'utf8'));
      expect(made, 'curl calls made, as the block spells them').toBe(calls);
      const answers = Array.from({ length: made }, (_, i) => {
        const body = readFileSync(join(log, `${i + 1}.body`), 'utf8');
        let json: unknown;
        try {
          json = JSON.parse(body);
        } catch {
          json = undefined;
        }
        return { status: Number(readFileSync(join(log, `${i + 1}.status`), 'utf8')), body, json };
      });
      const failures: string[] = [];
      answers.forEach((answer, i) => {
        const expected = expectations.filter((e) => e.call === i + 1);
        if (!expected.some((e) => e.status !== undefined) && answer.status >= 400) {
          failures.push(`call ${i + 1} answered ${answer.status} ${answer.body.slice(0, 500)}`);
        }
        for (const e of expected) {
          if ((e.status !== undefined && e.status !== answer.status) || (e.body !== undefined && !shows(answer.json, e.body))) {
            failures.push(`call ${i + 1}: "${e.text}" but it answered ${answer.status} ${answer.body.slice(0, 1000)}`);
          }
        }
      });
      for (const e of expectations.filter((e) => e.call === 0)) failures.push(`"${e.text}" follows no curl call`);
      expect(failures).toEqual([]);
    },
    120_000,
  );

  it.each(runnable.filter((block) => block.lang === 'graphql').map((block) => [name(block), block] as const))(
    '%s is valid against the schema and, when whole, runs without errors',
    async (_name, block) => {
      const document = parse(block.code);
      expect(validate(schema, document).map((error) => error.message)).toEqual([]);
      const operations = document.definitions.filter((d): d is OperationDefinitionNode => d.kind === 'OperationDefinition');
      if (operations.length === 0 || operations.some((operation) => operation.operation === 'subscription')) return;
      const key = /\b(?:pk|sk)_test_\w+/.exec(block.code)?.[0];
      const variables = /variables: (\{.*\})\s*$/m.exec(block.code)?.[1];
      expect(key, 'the key the block names').toBeDefined();
      const response = await fetch(`${server!.url}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
        body: JSON.stringify({ query: block.code, variables: variables ? (JSON.parse(variables) as unknown) : undefined }),
      });
      const body = (await response.json()) as { data?: unknown; errors?: unknown };
      expect({ status: response.status, errors: body.errors }).toEqual({ status: 200, errors: undefined });
      expect(body.data).toBeTruthy();
    },
  );
});

describe('the example checks', () => {
  it('match the fields shown and wildcard text, and nothing else', () => {
    expect(shows({ a: 1, b: 'pi_sbx_1_secret_2', c: [{ d: true }, 5] }, { b: 'pi_sbx_..._secret_...', c: [{ d: true }] })).toBe(true);
    expect(shows({ a: 1 }, { a: 2 })).toBe(false);
    expect(shows({ a: 'x' }, { b: '...' })).toBe(false);
    expect(shows([1], [1, 2])).toBe(false);
    expect(expectationsOf('X=$(curl -s a)\n# -> 201 {"a":1}\ncurl b | jq .\n# -> {"b":"..."}')).toEqual({
      calls: 2,
      expectations: [
        { call: 1, status: 201, body: { a: 1 }, text: '# -> 201 {"a":1}' },
        { call: 2, status: undefined, body: { b: '...' }, text: '# -> {"b":"..."}' },
      ],
    });
    expect(existsSync(join(root, 'docs/rest.md'))).toBe(true);
  });
});
