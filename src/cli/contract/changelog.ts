/**
 * CHANGELOG.md (Keep a Changelog): one `## [<version>]` section per release. A release whose contract
 * breaks clients must say so there: every BREAKING change's path (`Query.bookings`, `GET /v1/bookings`)
 * appears in its section, so no breaking change lands unannounced.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { allowsBreakingChanges, root } from './baselines.ts';
import type { ContractChange } from './change.ts';

export function readChangelog(): string {
  return readFileSync(join(root, 'CHANGELOG.md'), 'utf8');
}

/** The text of `## [<version>]`'s section, up to the next `## ` heading; undefined when there is none. */
export function changelogSection(changelog: string, version: string): string | undefined {
  const lines = changelog.split('\n');
  const start = lines.findIndex((line) => line.startsWith(`## [${version}]`));
  if (start < 0) return undefined;
  const end = lines.findIndex((line, i) => i > start && line.startsWith('## '));
  return lines.slice(start + 1, end < 0 ? undefined : end).join('\n');
}

/** Whether `text` names `path` on its own: `Query.booking` is not named by `Query.bookings` or `Query.booking.id`. */
export function names(text: string, path: string): boolean {
  const escaped = path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`(?<![\\w./{])${escaped}(?![\\w/{]|\\.\\w)`).test(text);
}

/**
 * What stops `version` from being released after `previous` with these changes between them: no section
 * in the CHANGELOG, breaking changes in a version that semver says may not break, breaking changes the
 * section does not name. Empty when the release is announced as it must be.
 */
export function releaseProblems(changelog: string, previous: string | undefined, version: string, changes: ContractChange[]): string[] {
  const section = changelogSection(changelog, version);
  if (section === undefined) return [`CHANGELOG.md has no "## [${version}]" section`];
  const breaking = changes.filter((c) => c.criticality === 'BREAKING');
  if (!previous || breaking.length === 0) return [];
  const problems: string[] = [];
  if (!allowsBreakingChanges(previous, version)) {
    problems.push(
      `${version} follows ${previous} with breaking changes: semver asks for a new ${previous.startsWith('0.') ? 'minor' : 'major'} version`,
    );
  }
  const unnamed = [...new Set(breaking.filter((c) => !names(section, c.path)).map((c) => c.path))];
  for (const path of unnamed) {
    const messages = breaking.filter((c) => c.path === path).map((c) => c.message);
    problems.push(`CHANGELOG.md's [${version}] section does not name ${path} (${messages.join('; ')})`);
  }
  return problems;
}
