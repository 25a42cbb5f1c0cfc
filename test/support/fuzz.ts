/**
 * Random request bodies for the fuzz test, and the checks every answer must pass. Bodies are valid ones
 * with a few edits (a value swapped for a hostile one, a field dropped, a list blown up, nesting
 * thousands deep), arbitrary JSON, or malformed bytes. Everything derives from fast-check's seed.
 */
import fc from 'fast-check';
import { errorStatus } from '../../src/rest/error-status.ts';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

const deep = (depth: number, leaf: Json = 1): Json => {
  let value: Json = leaf;
  for (let i = 0; i < depth; i++) value = i % 2 ? { a: value } : [value];
  return value;
};

/**
 * Nesting too deep for JSON.stringify (or for the test's own recursion) travels as a placeholder string
 * that `serialized` expands into the JSON text `[{"a":[{"a":...1...}]}]`.
 */
const DEEP = '\u0001deep:';
const deepText = (depth: number): Json => `${DEEP}${depth}`;
const expandDeep = (text: string) =>
  text.replace(/"\\u0001deep:(\d+)"/g, (_, n: string) => {
    const depth = Number(n);
    return '[{"a":'.repeat(depth) + '1' + '}]'.repeat(depth);
  });

/** Numbers that break naive arithmetic: extremes, fractions, unsafe integers. */
const hostileNumbers: readonly number[] = [
  0,
  -0,
  -1,
  1.5,
  0.125,
  0.005,
  1e-9,
  0.1 + 0.2,
  2 ** 31,
  -(2 ** 31) - 1,
  2 ** 53,
  2 ** 53 + 2,
  2 ** 64,
  1e21,
  1e308,
  -1e308,
  Number.MAX_VALUE,
  Number.MIN_VALUE,
  99999999999.999,
  12345678.91,
];

/** Text that breaks naive handling: empty, control and odd Unicode, formats almost right, injections, length. */
const hostileStrings: readonly string[] = [
  '',
  ' ',
  '\u0000',
  '\ud800',
  '\uffff',
  '\u202e',
  'ǅ',
  'İ',
  '🏳️‍🌈',
  '٣٤',
  'Ⅻ',
  '0',
  '-1',
  '1e309',
  'NaN',
  'true',
  'null',
  '[]',
  '{}',
  '2026-02-30',
  '2026-12-01T25:61',
  '2026-12-01T09:00+99:00',
  '2026-03-29T01:30',
  '00000000-0000-0000-0000-000000000000',
  'ffffffff-ffff-ffff-ffff-ffffffffffff',
  '*',
  '%00',
  '../../etc/passwd',
  "' OR 1=1 --",
  '"; DROP TABLE bookings; --',
  '<script>alert(1)</script>',
  '${7*7}',
  'a@b',
  'x'.repeat(5_001),
];

/** Values that break naive code: all of the above, wrong types, nesting. */
const hostile: readonly Json[] = [
  null,
  true,
  false,
  ...hostileNumbers,
  ...hostileStrings,
  [],
  {},
  [null],
  [[]],
  [{}],
  { a: {} },
  deep(64),
  deepText(5_000),
  deepText(30_000),
];

export const hostileValue: fc.Arbitrary<Json> = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom(...hostile) },
  { weight: 1, arbitrary: fc.integer() },
  { weight: 1, arbitrary: fc.double({ noNaN: true, noDefaultInfinity: true }) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 30 }) },
  { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }) as fc.Arbitrary<Json> },
  { weight: 1, arbitrary: fc.integer({ min: 100, max: 30_000 }).map(deepText) },
  { weight: 1, arbitrary: fc.integer({ min: 1, max: 20_000 }).map((n) => 'y'.repeat(n)) },
);

interface Edit {
  at: number;
  /** `sametype` keeps the JSON type (a number for a number), so the body more often passes the schema and reaches the rules. */
  op: 'sametype' | 'replace' | 'delete' | 'repeat' | 'extra' | 'wrap';
  value: Json;
  times: number;
  pick: number;
}

const edit: fc.Arbitrary<Edit> = fc.record({
  at: fc.nat(),
  op: fc.constantFrom('sametype', 'sametype', 'sametype', 'sametype', 'replace', 'replace', 'delete', 'repeat', 'extra', 'wrap'),
  value: hostileValue,
  times: fc.integer({ min: 2, max: 2_000 }),
  pick: fc.nat(),
});

/** A hostile value of the same JSON type as `current`. */
function sameType(current: Json, pick: number): Json {
  if (typeof current === 'number') return hostileNumbers[pick % hostileNumbers.length]!;
  if (typeof current === 'string') return hostileStrings[pick % hostileStrings.length]!;
  if (typeof current === 'boolean') return !current;
  if (Array.isArray(current)) return pick % 2 ? [] : [...current, ...current];
  if (current && typeof current === 'object')
    return Object.fromEntries(Object.entries(current).filter((_, i) => i !== pick % Object.keys(current).length));
  return hostileNumbers[pick % hostileNumbers.length]!;
}

/** Every position in `value`: the parent and the key under which it sits (no parent for the root). */
function positions(
  value: Json,
  parent: Json[] | { [key: string]: Json } | null = null,
  key: string | number = '',
): Array<[typeof parent, string | number]> {
  const here: Array<[typeof parent, string | number]> = [[parent, key]];
  if (Array.isArray(value)) return here.concat(value.flatMap((item, i) => positions(item, value, i)));
  if (value && typeof value === 'object') return here.concat(Object.entries(value).flatMap(([k, v]) => positions(v, value, k)));
  return here;
}

/**
 * `times` copies of `item`, some 256 KiB at most: enough to exceed every list limit, and well under the
 * 1 MiB body limit (a larger body only ever gets a 413, tested on its own). Copies, not references: a
 * later edit inside one must not grow them all.
 */
function repeated(item: Json, times: number): Json[] {
  const size = serialized(item).length + 1;
  return Array.from({ length: Math.max(1, Math.min(times, Math.floor((256 * 1024) / size))) }, () => structuredClone(item));
}

function applyEdit(root: Json, { at, op, value: shared, times, pick }: Edit): Json {
  // The value may be a shared constant: edits inside it later must not change it for other runs.
  const value = structuredClone(shared);
  const all = positions(root);
  const [parent, key] = all[at % all.length]!;
  const current: Json = parent === null ? root : (parent as Record<string | number, Json>)[key]!;
  const replacement: Json | undefined =
    op === 'sametype'
      ? sameType(current, pick)
      : op === 'replace'
        ? value
        : op === 'delete'
          ? undefined
          : op === 'repeat'
            ? repeated(Array.isArray(current) && current.length > 0 ? current[0]! : current, times)
            : op === 'wrap'
              ? [current]
              : current && typeof current === 'object' && !Array.isArray(current)
                ? { ...current, unexpectedField: value }
                : value;
  if (parent === null) return replacement === undefined ? {} : replacement;
  if (replacement === undefined) {
    if (Array.isArray(parent)) parent.splice(key as number, 1);
    else delete parent[key as string];
  } else {
    (parent as Record<string | number, Json>)[key] = replacement;
  }
  return root;
}

/** A valid JSON value with a random edit, sometimes two to four. */
export function mutated(template: () => Json): fc.Arbitrary<Json> {
  const edits = fc.oneof(
    { weight: 3, arbitrary: fc.tuple(edit) },
    { weight: 1, arbitrary: fc.array(edit, { minLength: 2, maxLength: 4 }) },
  );
  return edits.map((list) => list.reduce(applyEdit, template()));
}

/** Bytes no JSON parser should accept quietly (or that test its limits). */
const malformed: ReadonlyArray<string | Buffer> = [
  '',
  ' ',
  'null',
  '""',
  '[]',
  '{',
  '{"a":',
  '{"a" 1}',
  "{'a': 1}",
  '{"a":1,}',
  'NaN',
  '[1e999999]',
  `[${'9'.repeat(5_000)}]`,
  '\ufeff{}',
  '{"__proto__": {"polluted": true}}',
  '{"constructor": {"prototype": {"polluted": true}}}',
  '['.repeat(200_000) + ']'.repeat(200_000),
  '{"a":'.repeat(100_000) + '1' + '}'.repeat(100_000),
  Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0x22, 0x7d]),
  Buffer.from([0xef, 0xbb, 0xbf, 0x5b, 0x5d]),
];

export interface FuzzBody {
  payload: string | Buffer;
  contentType: string | undefined;
  /** Sometimes an Idempotency-Key, valid or not, so the idempotency layer sees the same bodies. */
  idempotencyKey: string | null;
}

const contentType = fc.oneof(
  { weight: 12, arbitrary: fc.constant('application/json') },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      'application/json; charset=utf-8',
      'text/plain',
      'application/x-www-form-urlencoded',
      'application/json; charset=latin1',
      undefined,
    ),
  },
);

const serialized = (value: unknown): string => {
  try {
    return expandDeep(JSON.stringify(value) ?? 'null');
  } catch {
    return 'null';
  }
};

/** A request body around `template`: mostly edited valid bodies, also arbitrary JSON and malformed bytes. */
export function fuzzBody(template: () => Json): fc.Arbitrary<FuzzBody> {
  const payload = fc.oneof(
    { weight: 8, arbitrary: mutated(template).map(serialized) },
    { weight: 1, arbitrary: fc.json({ maxDepth: 4 }) },
    { weight: 1, arbitrary: fc.anything({ maxDepth: 3 }).map(serialized) },
    { weight: 1, arbitrary: fc.constantFrom(...malformed) },
    {
      weight: 1,
      arbitrary: fc.tuple(mutated(template), fc.nat()).map(([v, cut]) => {
        const s = serialized(v);
        return s.slice(0, cut % (s.length + 1));
      }),
    },
  );
  const idempotencyKey = fc.oneof({ weight: 5, arbitrary: fc.constant(null) }, fc.uuid(), fc.stringMatching(/^[\x20-\x7e]{0,300}$/));
  return fc.record({ payload, contentType, idempotencyKey });
}

/** Signs of internals in an answer: stack frames, database and library names, source paths, JS errors. */
const INTERNALS = [
  /\bat \S+ \(|\n\s+at /,
  /sqlite/i,
  /drizzle/i,
  /\/src\/|node_modules|\.ts:\d+/,
  /TypeError|ReferenceError|RangeError|SyntaxError/,
  /Cannot read|is not a function|undefined is not/,
];

export function leakedInternals(text: string): RegExp | undefined {
  return INTERNALS.find((pattern) => pattern.test(text));
}

export interface Answer {
  status: number;
  text: string;
  headers: Record<string, unknown>;
}

/** A REST answer: no 5xx, JSON, and failures in the standard error shape with a code matching the status. */
export function checkRestAnswer(res: Answer): void {
  if (res.status >= 500) throw new Error(`status ${res.status}: ${res.text.slice(0, 300)}`);
  const leak = leakedInternals(res.text);
  if (leak) throw new Error(`answer leaks internals (${leak}): ${res.text.slice(0, 300)}`);
  if (res.status < 400) return;
  const body = JSON.parse(res.text) as { error?: Record<string, unknown> };
  const error = body.error ?? {};
  const keys = Object.keys(body).concat(Object.keys(error).filter((k) => !['code', 'message', 'details', 'requestId'].includes(k)));
  if (keys.join() !== 'error') throw new Error(`not the standard error shape: ${res.text.slice(0, 300)}`);
  const code = error.code as keyof typeof errorStatus;
  if (errorStatus[code] !== res.status) throw new Error(`code ${String(code)} answered with status ${res.status}`);
  if (typeof error.message !== 'string' || error.requestId !== res.headers['x-request-id'])
    throw new Error(`bad message or request id: ${res.text.slice(0, 300)}`);
}

/** A GraphQL answer: no 5xx, no INTERNAL_SERVER_ERROR, every error with a code. Transport refusals use the REST shape. */
export function checkGraphqlAnswer(res: Answer): void {
  const body = JSON.parse(res.text) as { error?: unknown; errors?: Array<{ message?: unknown; extensions?: { code?: unknown } }> };
  // Whatever answers it (Apollo, the rate limit, the body limit...), /graphql errors are GraphQL's (src/http/error-answer.ts).
  if (body.error) throw new Error(`REST-shaped error on /graphql: ${res.text.slice(0, 300)}`);
  if (res.status >= 500) throw new Error(`status ${res.status}: ${res.text.slice(0, 300)}`);
  const leak = leakedInternals(res.text);
  if (leak) throw new Error(`answer leaks internals (${leak}): ${res.text.slice(0, 300)}`);
  for (const error of body.errors ?? []) {
    const code = error.extensions?.code;
    if (typeof code !== 'string' || !/^[A-Z][A-Z_]+$/.test(code) || code === 'INTERNAL_SERVER_ERROR') {
      throw new Error(`GraphQL error without a client code: ${JSON.stringify(error).slice(0, 300)}`);
    }
  }
}
