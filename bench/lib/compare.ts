/**
 * Before any timing, every server must give the same answer to the same request: the same bytes,
 * apart from the one newline Apollo Server appends to each JSON body (Mercurius does not).
 */
import { hasGraphqlErrors, type Answer } from './requests.ts';

export class MismatchError extends Error {}

const withoutFinalNewline = (body: Buffer) => (body.at(-1) === 0x0a ? body.subarray(0, -1) : body);

/** Both bodies around their first difference, for the error message. */
function excerpt(a: Buffer, b: Buffer): string {
  let at = 0;
  while (at < a.length && at < b.length && a[at] === b[at]) at += 1;
  const around = (body: Buffer) => JSON.stringify(body.subarray(Math.max(0, at - 120), at + 120).toString('utf8'));
  return `first difference at byte ${at} (lengths ${a.length} and ${b.length}):\n    ${around(a)}\n    ${around(b)}`;
}

/**
 * Throws a MismatchError naming the servers whose answer differs from the first's (status, content
 * type or body), with the bodies around the first difference; also when the first is no success.
 */
export function requireSameAnswers(what: string, answers: Array<{ server: string; answer: Answer }>): void {
  const [reference, ...others] = answers;
  if (!reference) return;
  const problems: string[] = [];
  const text = reference.answer.body.toString('utf8');
  if (reference.answer.status !== 200 || hasGraphqlErrors(JSON.parse(text)))
    problems.push(`${reference.server} answered ${reference.answer.status}: ${text.slice(0, 300)}`);
  const refBody = withoutFinalNewline(reference.answer.body);
  for (const { server, answer } of others) {
    const body = withoutFinalNewline(answer.body);
    if (answer.status !== reference.answer.status)
      problems.push(`${server} answered ${answer.status}, ${reference.server} ${reference.answer.status}`);
    if (answer.contentType !== reference.answer.contentType)
      problems.push(`${server} content-type ${answer.contentType}, ${reference.server} ${reference.answer.contentType}`);
    if (!body.equals(refBody)) problems.push(`${server} and ${reference.server} differ, ${excerpt(refBody, body)}`);
  }
  if (problems.length > 0) throw new MismatchError(`${what}: answers differ\n  ${problems.join('\n  ')}`);
}

/**
 * Whether two JSON values hold the same data with only the order of some object's keys differing:
 * the objects where it differs (a path, `[]` for any array element, with both key orders), or null
 * when the data differs. PostgreSQL's jsonb keeps an object's keys in its own order (shorter keys
 * first), not in the order they were written, as SQLite's JSON text does.
 */
export function keyOrderDifferences(a: unknown, b: unknown): string[] | null {
  const found = new Map<string, string>();
  const same = (x: unknown, y: unknown, path: string): boolean => {
    if (Array.isArray(x) || Array.isArray(y)) {
      if (!Array.isArray(x) || !Array.isArray(y) || x.length !== y.length) return false;
      return x.every((value, i) => same(value, y[i], `${path}[]`));
    }
    if (typeof x === 'object' && x !== null && typeof y === 'object' && y !== null) {
      const keys = Object.keys(x);
      const theirs = Object.keys(y);
      if (keys.length !== theirs.length || !keys.every((key) => Object.hasOwn(y, key))) return false;
      if (keys.some((key, i) => key !== theirs[i]) && !found.has(path))
        found.set(path, `${path || '(root)'}: {${keys.join(', ')}} against {${theirs.join(', ')}}`);
      return keys.every((key) =>
        same((x as Record<string, unknown>)[key], (y as Record<string, unknown>)[key], path ? `${path}.${key}` : key),
      );
    }
    return x === y;
  };
  return same(a, b, '') ? [...found.values()] : null;
}
