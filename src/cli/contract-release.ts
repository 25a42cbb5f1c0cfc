/**
 * `npm run contract:release`: writes the published contract of package.json's `version` as its baseline
 * (contract/graphql/<version>.graphql, contract/openapi/<version>.json, contract/subgraph/<version>.graphql),
 * once the release is announced. It compares the contract with the previous version's baseline (the
 * subgraph's: its entities and keys, src/cli/contract/subgraph-changes.ts) and writes nothing while a breaking change
 * is not allowed by the version (0.x: a new minor) or not named in CHANGELOG.md's section for the version;
 * it lists them, so the section can be written from its output. A released baseline is never rewritten:
 * a contract that changed after its release needs a new version.
 */
import { existsSync, readFileSync } from 'node:fs';
import {
  baselinePath,
  baselineText,
  baselineVersions,
  compareVersions,
  parseVersion,
  packageVersion,
  readGraphQLBaseline,
  readOpenApiBaseline,
  readSubgraphBaseline,
  subgraphBaselineFor,
  writeBaseline,
  type Kind,
} from './contract/baselines.ts';
import type { ContractChange } from './contract/change.ts';
import { changelogSection, names, readChangelog, releaseProblems } from './contract/changelog.ts';
import { currentGraphQLSdl, currentOpenApiDocument, currentSubgraphSdl } from './contract/current.ts';
import { subgraphChanges } from './contract/subgraph-changes.ts';
import { graphqlChanges } from './contract/graphql-changes.ts';
import { openapiChanges } from './contract/openapi-changes.ts';
import { runWhenMain } from './main.ts';

export async function runContractRelease(_argv: string[], out: (line: string) => void): Promise<number> {
  const version = packageVersion();
  if (!parseVersion(version)) {
    out(`package.json's version ${version} is not MAJOR.MINOR.PATCH`);
    return 1;
  }
  const sdl = currentGraphQLSdl();
  const document = await currentOpenApiDocument();
  const subgraph = await currentSubgraphSdl();
  const texts: Record<Kind, string> = {
    graphql: await baselineText('graphql', version, sdl),
    openapi: await baselineText('openapi', version, document),
    subgraph: await baselineText('subgraph', version, subgraph),
  };
  const released = baselineVersions('graphql').filter((v) => baselineVersions('openapi').includes(v));
  if (released.includes(version) && !existsSync(baselinePath('subgraph', version))) {
    // Released before Tessera published a subgraph SDL: the first subgraph baseline, written once, never rewritten.
    await writeBaseline('subgraph', version, texts.subgraph);
    out(`Wrote ${baselinePath('subgraph', version)}`);
  }
  if (released.includes(version)) {
    const same = (['graphql', 'openapi'] as const).every((kind) => readFileSync(baselinePath(kind, version), 'utf8') === texts[kind]);
    out(
      same
        ? `The baseline of ${version} is the current contract: nothing to write.`
        : `${version} is released and its contract differs from the current one: bump package.json's version, add its CHANGELOG.md section, and run this again.`,
    );
    return same ? 0 : 1;
  }
  const previous = released.filter((v) => compareVersions(v, version) < 0).at(-1);
  if (released.some((v) => compareVersions(v, version) > 0)) {
    out(`A newer version than ${version} has a baseline already: ${released.at(-1)}`);
    return 1;
  }
  const previousSubgraph = previous && subgraphBaselineFor(previous);
  const changes: ContractChange[] = previous
    ? [
        ...(await graphqlChanges(readGraphQLBaseline(previous), sdl)),
        ...openapiChanges(readOpenApiBaseline(previous), document),
        ...(previousSubgraph ? subgraphChanges(readSubgraphBaseline(previousSubgraph), subgraph) : []),
      ]
    : [];
  for (const level of ['BREAKING', 'DANGEROUS'] as const) {
    const listed = changes.filter((c) => c.criticality === level);
    if (listed.length > 0) out(`${level} since ${previous}:\n${listed.map((c) => `  ${c.path}: ${c.message}`).join('\n')}`);
  }
  const changelog = readChangelog();
  const problems = releaseProblems(changelog, previous, version, changes);
  if (problems.length > 0) {
    out(`Nothing written:\n${problems.map((p) => `  ${p}`).join('\n')}`);
    const section = changelogSection(changelog, version) ?? '';
    const unnamed = [...new Set(changes.filter((c) => c.criticality === 'BREAKING' && !names(section, c.path)).map((c) => c.path))];
    if (unnamed.length > 0) out(`The paths its section must name:\n${unnamed.map((p) => `\`${p}\``).join(', ')}`);
    return 1;
  }
  for (const kind of ['graphql', 'openapi', 'subgraph'] as const) {
    await writeBaseline(kind, version, texts[kind]);
    out(`Wrote ${baselinePath(kind, version)}`);
  }
  return 0;
}

runWhenMain(import.meta.url, runContractRelease);
