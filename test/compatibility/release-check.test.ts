/**
 * The release rules: a version's CHANGELOG.md section must exist, and a release with breaking changes
 * must be one semver allows to break and must name each of them in its section.
 */
import { describe, expect, it } from 'vitest';
import { allowsBreakingChanges, compareVersions, parseVersion } from '../../src/cli/contract/baselines.ts';
import type { ContractChange } from '../../src/cli/contract/change.ts';
import { changelogSection, names, releaseProblems } from '../../src/cli/contract/changelog.ts';

const changelog = `# Changelog

## [Unreleased]

## [0.2.0] - 2026-12-01

### Removed

- \`Query.bookings\`: read a brand's bookings with \`Brand.bookings\`.
- \`GET /v1/brands/{brandId}/bookings\` lost \`items[].notes\`.

## [0.1.0] - 2026-11-26

- First release.
`;

const removedField: ContractChange = {
  criticality: 'BREAKING',
  path: 'Query.bookings',
  message: "Field 'bookings' was removed from object type 'Query'",
};
const removedProperty: ContractChange = {
  criticality: 'BREAKING',
  path: 'GET /v1/brands/{brandId}/bookings',
  message: 'GET /v1/brands/{brandId}/bookings: 200 answer items[].notes was removed',
};
const newValue: ContractChange = {
  criticality: 'DANGEROUS',
  path: 'BookingStatus.EXPIRED',
  message: "Enum value 'EXPIRED' was added to enum 'BookingStatus'",
};

describe('a release', () => {
  it('reads its own CHANGELOG.md section', () => {
    expect(changelogSection(changelog, '0.1.0')).toBe('\n- First release.\n');
    expect(changelogSection(changelog, '0.3.0')).toBeUndefined();
  });

  it('passes when its section names every breaking change (dangerous ones need no mention)', () => {
    expect(releaseProblems(changelog, '0.1.0', '0.2.0', [removedField, removedProperty, newValue])).toEqual([]);
    expect(releaseProblems(changelog, undefined, '0.1.0', [])).toEqual([]);
  });

  it('fails without a section', () => {
    expect(releaseProblems(changelog, '0.2.0', '0.3.0', [])).toEqual(['CHANGELOG.md has no "## [0.3.0]" section']);
  });

  it('fails on a breaking change its section does not name, nor a longer path that starts with it', () => {
    const other: ContractChange = {
      criticality: 'BREAKING',
      path: 'Query.booking',
      message: "Field 'booking' was removed from object type 'Query'",
    };
    const argument: ContractChange = {
      ...other,
      path: 'Query.bookings.status',
      message: "Argument 'status: String' was removed from field 'Query.bookings'",
    };
    expect(releaseProblems(changelog, '0.1.0', '0.2.0', [removedField, other, argument])).toEqual([
      `CHANGELOG.md's [0.2.0] section does not name Query.booking (${other.message})`,
      `CHANGELOG.md's [0.2.0] section does not name Query.bookings.status (${argument.message})`,
    ]);
  });

  it('fails on a breaking change in a version semver does not let break (0.x: a new minor; then a new major)', () => {
    const patch = changelog.replace('## [0.2.0]', '## [0.1.1]');
    expect(releaseProblems(patch, '0.1.0', '0.1.1', [removedField])).toEqual([
      '0.1.1 follows 0.1.0 with breaking changes: semver asks for a new minor version',
    ]);
    expect(releaseProblems(patch, '0.1.0', '0.1.1', [newValue])).toEqual([]);
    expect(allowsBreakingChanges('1.4.2', '1.5.0')).toBe(false);
    expect(allowsBreakingChanges('1.4.2', '2.0.0')).toBe(true);
    expect(allowsBreakingChanges('0.9.3', '1.0.0')).toBe(true);
  });
});

describe('names', () => {
  it('finds a path on its own, in backticks or prose, and not inside a longer one', () => {
    expect(names('- `Query.bookings`: gone', 'Query.bookings')).toBe(true);
    expect(names('Query.bookings.', 'Query.bookings')).toBe(true);
    expect(names('Query.bookingsByBrand', 'Query.bookings')).toBe(false);
    expect(names('Query.bookings.status', 'Query.bookings')).toBe(false);
    expect(names('MyQuery.bookings', 'Query.bookings')).toBe(false);
    expect(names('GET /v1/bookings/{bookingId}/reschedule', 'GET /v1/bookings/{bookingId}')).toBe(false);
    expect(names('GET /v1/bookings/{bookingId}: 404', 'GET /v1/bookings/{bookingId}')).toBe(true);
  });
});

describe('versions', () => {
  it('are MAJOR.MINOR.PATCH, compared as numbers', () => {
    expect(parseVersion('0.10.2')).toEqual([0, 10, 2]);
    expect(parseVersion('1.0.0-rc.1')).toBeUndefined();
    expect(['0.10.0', '0.2.0', '0.1.0', '1.0.0'].sort(compareVersions)).toEqual(['0.1.0', '0.2.0', '0.10.0', '1.0.0']);
  });
});
