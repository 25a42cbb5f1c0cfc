/**
 * The published contracts, one file per released version: contract/graphql/<version>.graphql (the SDL),
 * contract/openapi/<version>.json (the OpenAPI document) and contract/subgraph/<version>.graphql (the
 * Federation subgraph SDL, `_service { sdl }`, whose entities and keys other teams' subgraphs rely on). The newest is package.json's `version`;
 * older ones stay, so each release's changes can be checked against its CHANGELOG.md section.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { format, resolveConfig } from 'prettier';
import type { OpenApiDocument } from './openapi-changes.ts';

export const root = fileURLToPath(new URL('../../../', import.meta.url));
const folders = {
  graphql: join(root, 'contract/graphql'),
  openapi: join(root, 'contract/openapi'),
  subgraph: join(root, 'contract/subgraph'),
};
const extensions = { graphql: '.graphql', openapi: '.json', subgraph: '.graphql' };
export type Kind = keyof typeof folders;

export function baselinePath(kind: Kind, version: string): string {
  return join(folders[kind], `${version}${extensions[kind]}`);
}

/** package.json's `version`: the release the working tree is. */
export function packageVersion(): string {
  return (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string }).version;
}

/** Plain semver MAJOR.MINOR.PATCH, as a tuple; undefined for anything else (pre-releases included). */
export function parseVersion(version: string): [number, number, number] | undefined {
  const match = /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)$/.exec(version);
  return match ? [Number(match[1]), Number(match[2]), Number(match[3])] : undefined;
}

export function compareVersions(a: string, b: string): number {
  const [x, y] = [parseVersion(a), parseVersion(b)];
  if (!x || !y) throw new Error(`Not a MAJOR.MINOR.PATCH version: ${x ? b : a}`);
  return x[0] - y[0] || x[1] - y[1] || x[2] - y[2];
}

/** Whether going from `previous` to `next` may break clients under semver (0.x: a new minor does). */
export function allowsBreakingChanges(previous: string, next: string): boolean {
  const [p, n] = [parseVersion(previous)!, parseVersion(next)!];
  return n[0] > p[0] || (n[0] === 0 && p[0] === 0 && n[1] > p[1]);
}

/** The versions with a baseline of this kind, oldest first. */
export function baselineVersions(kind: Kind): string[] {
  if (!existsSync(folders[kind])) return [];
  return readdirSync(folders[kind])
    .filter((f) => f.endsWith(extensions[kind]))
    .map((f) => f.slice(0, -extensions[kind].length))
    .sort(compareVersions);
}

export function readGraphQLBaseline(version: string): string {
  return readFileSync(baselinePath('graphql', version), 'utf8');
}

export function readSubgraphBaseline(version: string): string {
  return readFileSync(baselinePath('subgraph', version), 'utf8');
}

/** The newest subgraph baseline at or before `version` (the subgraph was first published after 0.1.0). */
export function subgraphBaselineFor(version: string): string | undefined {
  return baselineVersions('subgraph')
    .filter((v) => compareVersions(v, version) <= 0)
    .at(-1);
}

export function readOpenApiBaseline(version: string): OpenApiDocument {
  return JSON.parse(readFileSync(baselinePath('openapi', version), 'utf8')) as OpenApiDocument;
}

/** A baseline's text as it is committed: formatted by Prettier, so `npm run lint` accepts it as written. */
export async function baselineText(kind: Kind, version: string, contract: string | OpenApiDocument): Promise<string> {
  const path = baselinePath(kind, version);
  const text = typeof contract === 'string' ? contract : JSON.stringify(contract);
  return format(text, { ...(await resolveConfig(path)), filepath: path });
}

export async function writeBaseline(kind: Kind, version: string, text: string): Promise<void> {
  await writeFile(baselinePath(kind, version), text);
}
