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
