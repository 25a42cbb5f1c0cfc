/**
 * The schema never breaks silently. The GraphQL SDL and the OpenAPI document Tessera serves are compared
 * with the baseline of package.json's version (contract/): a BREAKING change fails, naming each one. A
 * change that must break clients lands as a release: a new version (0.x: a new minor) whose CHANGELOG.md
 * section names every breaking change, and its baseline written by `npm run contract:release`. Removing
 * what the baseline already marked deprecated is the path that needs no release.
 *
 * DANGEROUS changes (a new enum value, a removed deprecated field, a new union member) are printed and do
 * not fail: they break no client written against the contract, yet a reviewer should see them, and a
 * client with an exhaustive switch over an enum may want to know.
 *
 * No database is read, so this file runs once (not per engine; vitest.config.ts).
 */
import { describe, expect, it } from 'vitest';
import {
  baselineVersions,
  packageVersion,
  parseVersion,
  readGraphQLBaseline,
  readOpenApiBaseline,
} from '../../src/cli/contract/baselines.ts';
import type { ContractChange } from '../../src/cli/contract/change.ts';
import { changelogSection, readChangelog, releaseProblems } from '../../src/cli/contract/changelog.ts';
import { currentGraphQLSdl, currentOpenApiDocument } from '../../src/cli/contract/current.ts';
import { graphqlChanges } from '../../src/cli/contract/graphql-changes.ts';
import { openapiChanges } from '../../src/cli/contract/openapi-changes.ts';

const version = packageVersion();
const changelog = readChangelog();
const versions = baselineVersions('graphql');

/** The BREAKING changes as `path: message` lines, the DANGEROUS ones printed for the reviewer. */
function breakingOnly(what: string, changes: ContractChange[]): string[] {
  const dangerous = changes.filter((c) => c.criticality === 'DANGEROUS');
  if (dangerous.length > 0) console.warn(`${what}: DANGEROUS changes\n${dangerous.map((c) => `  ${c.path}: ${c.message}`).join('\n')}`);
  return changes.filter((c) => c.criticality === 'BREAKING').map((c) => `${c.path}: ${c.message}`);
}

const unannounced = (kind: 'graphql' | 'openapi') =>
  `breaking changes against contract/${kind}/${version}.${kind === 'graphql' ? 'graphql' : 'json'}: deprecate first, or release them ` +
  '(a new version, its CHANGELOG.md section, npm run contract:release; docs/rest.md, "Compatibility and deprecation")';

describe(`the published contract of package.json's version (${version})`, () => {
  it('is the newest baseline, kept for both APIs, with a CHANGELOG.md section', () => {
    expect(parseVersion(version), 'package.json version is MAJOR.MINOR.PATCH').toBeDefined();
    expect(versions.at(-1), `contract/graphql/${version}.graphql is the newest baseline (npm run contract:release)`).toBe(version);
    expect(baselineVersions('openapi')).toEqual(versions);
    expect(changelogSection(changelog, version), `CHANGELOG.md has a "## [${version}]" section`).toBeDefined();
  });

  it('GraphQL: the served SDL breaks nothing of the baseline', async () => {
    const changes = await graphqlChanges(readGraphQLBaseline(version), currentGraphQLSdl());
    expect(breakingOnly('GraphQL', changes), unannounced('graphql')).toEqual([]);
  });

  it('OpenAPI: GET /openapi.json breaks nothing of the baseline', async () => {
    const changes = openapiChanges(readOpenApiBaseline(version), await currentOpenApiDocument());
    expect(breakingOnly('OpenAPI', changes), unannounced('openapi')).toEqual([]);
  });
});

describe('each release after the one before it', () => {
  it('is announced: its CHANGELOG.md section names every breaking change, in a version semver allows to break', async () => {
    const problems: string[] = [];
    for (const [i, release] of versions.entries()) {
      const previous = versions[i - 1];
      const changes = previous
        ? [
            ...(await graphqlChanges(readGraphQLBaseline(previous), readGraphQLBaseline(release))),
            ...openapiChanges(readOpenApiBaseline(previous), readOpenApiBaseline(release)),
          ]
        : [];
      problems.push(...releaseProblems(changelog, previous, release, changes));
    }
    expect(problems).toEqual([]);
  });
});
