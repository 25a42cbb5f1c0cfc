/**
 * Log lines on standard output (src/http/logging.ts, standardOutput): every line arrives, byte for byte
 * and in order, text outside ASCII included, even when the process exits in the same turn it logged them.
 */
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

const root = join(dirname(fileURLToPath(import.meta.url)), '../../..');

it('writes every line, multibyte text included, in order, and flushes them when the process exits at once', () => {
  const script = `
    import { standardOutput } from './src/http/logging.ts';
    const out = standardOutput();
    for (let n = 0; n < 2000; n += 1) out.write(JSON.stringify({ n, msg: 'Passeio ao pôr do sol — café ☕ 東京' }) + '\\n');
    process.exit(0);
  `;
  const child = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { cwd: root, encoding: 'utf8' });
  expect(child.status, child.stderr).toBe(0);
  const lines = child.stdout.split('\n');
  expect(lines.pop()).toBe('');
  expect(lines).toHaveLength(2000);
  lines.forEach((line, n) => expect(JSON.parse(line)).toStrictEqual({ n, msg: 'Passeio ao pôr do sol — café ☕ 東京' }));
});
