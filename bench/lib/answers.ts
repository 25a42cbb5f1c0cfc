/**
 * The answers captured before timing: each target's first answer is checked (same bytes across the
 * servers that answer the same request, and a success) and becomes the body every timed response
 * must carry.
 */
import { writeFileSync } from 'node:fs';
import type { CannedAnswer } from '../servers/bare-http.ts';
import { requireSameAnswers } from './compare.ts';
import type { Server } from './processes.ts';
import { send, type Answer } from './requests.ts';
import { targets, type ServerName } from './targets.ts';

export type Servers = Record<ServerName, Server>;

/** Asks each target's server once; the targets sharing a request must agree with Tessera's answer. */
export async function captureAnswers(servers: Partial<Servers>, names: ReadonlySet<string>): Promise<Map<string, Answer>> {
  const answers = new Map<string, Answer>();
  const chosen = targets.filter((t) => t.request && names.has(t.name));
  for (const target of chosen) {
    const server = servers[target.server];
    if (!server) throw new Error(`${target.name}: server ${target.server} is not running`);
    answers.set(target.name, await send(server.url, target.request!));
  }
  const groups = new Map<string, string[]>();
  for (const target of chosen) {
    const key = `${target.request!.method} ${target.request!.path} ${target.request!.body ?? ''}`;
    groups.set(key, [...(groups.get(key) ?? []), target.name]);
  }
  for (const group of groups.values()) {
    const tessera = group.find((name) => targets.find((t) => t.name === name)!.server === 'tessera')!;
    const ordered = [tessera, ...group.filter((name) => name !== tessera)];
    requireSameAnswers(
      group.join(' / '),
      ordered.map((name) => ({ server: name, answer: answers.get(name)! })),
    );
  }
  return answers;
}

/** Writes Tessera's answers to T1 and T2 where the bare server reads them; returns the file. */
export function writeCannedAnswers(file: string, answers: Map<string, Answer>): string {
  const canned: CannedAnswer[] = ['T1', 'T2'].map((name) => {
    const request = targets.find((t) => t.name === name)!.request!;
    const answer = answers.get(name)!;
    return { method: request.method, path: request.path, contentType: answer.contentType, body: answer.body.toString('base64') };
  });
  writeFileSync(file, JSON.stringify(canned));
  return file;
}
