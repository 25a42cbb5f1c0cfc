/** HEAP_GROWING_PERCENT: which V8 flag the gateway sets at start, and that V8 knows it (src/heap.ts). */
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../../src/config.ts';
import { heapGrowingFlag } from '../../../src/heap.ts';

/** What V8 writes to standard error when a fresh node process sets `flag` at run time. */
function v8Complaint(flag: string): string {
  const run = spawnSync(process.execPath, ['-e', `require('node:v8').setFlagsFromString(${JSON.stringify(flag)})`], { encoding: 'utf8' });
  expect(run.status).toBe(0);
  return run.stderr;
}

describe('heap growth', () => {
  it('sets V8 heap growing factor from HEAP_GROWING_PERCENT, 50 unless told otherwise', () => {
    expect(heapGrowingFlag(loadConfig({}).HEAP_GROWING_PERCENT, [])).toBe('--heap-growing-percent=50');
    expect(heapGrowingFlag(loadConfig({ HEAP_GROWING_PERCENT: '120' }).HEAP_GROWING_PERCENT, [])).toBe('--heap-growing-percent=120');
  });

  it("leaves V8's own rule at 0, and a flag on node's command line wins in either spelling", () => {
    expect(heapGrowingFlag(0, [])).toBeUndefined();
    expect(heapGrowingFlag(50, ['--heap-growing-percent=20'])).toBeUndefined();
    expect(heapGrowingFlag(50, ['--heap_growing_percent', '20'])).toBeUndefined();
    expect(heapGrowingFlag(50, ['--heap-growing-percent-extra=1', '--max-old-space-size=512'])).toBe('--heap-growing-percent=50');
  });

  it('refuses a value V8 would not take as a factor', () => {
    for (const bad of ['-1', '301', '1.5', 'half']) {
      expect(() => loadConfig({ HEAP_GROWING_PERCENT: bad })).toThrow(ConfigError);
      expect(() => loadConfig({ HEAP_GROWING_PERCENT: bad })).toThrow(/HEAP_GROWING_PERCENT/);
    }
  });

  it('names a flag this V8 knows: setting it at run time is silent, where a misspelt one is not', () => {
    expect(v8Complaint(heapGrowingFlag(50, [])!)).toBe('');
    expect(v8Complaint('--heap-growin-percent=50')).toContain('unrecognized flag');
  });
});
