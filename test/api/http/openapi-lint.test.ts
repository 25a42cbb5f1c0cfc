/**
 * `redocly lint` with the recommended rules (redocly.yaml) on the document the gateway serves: no error
 * and no warning. The CLI runs offline (telemetry off, no update check).
 */
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, expect, it } from 'vitest';
import { startApp } from '../../support/app.ts';
import { freshDb } from '../../support/db.ts';

const root = join(import.meta.dirname, '../../..');
const dir = await mkdtemp(join(tmpdir(), 'tessera-openapi-'));
afterAll(() => rm(dir, { recursive: true, force: true }));

it('reports no error and no warning on /openapi.json', { timeout: 120_000 }, async () => {
  const t = await startApp(await freshDb());
  const file = join(dir, 'openapi.json');
  await writeFile(file, (await t.app.inject({ method: 'GET', url: '/openapi.json' })).body);

  const run = await promisify(execFile)(
    join(root, 'node_modules/.bin/redocly'),
    ['lint', file, '--config', join(root, 'redocly.yaml'), '--format', 'stylish'],
    { env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', NO_COLOR: '1' } },
  ).then(
    ({ stdout, stderr }) => ({ code: 0, output: stdout + stderr }),
    (error: { code: number; stdout: string; stderr: string }) => ({ code: error.code, output: error.stdout + error.stderr }),
  );
  // Problems are listed as `line:column  error|warning  rule  message`, then counted.
  expect(run.output).not.toMatch(/^\s*\d+:\d+\s+(error|warning)\b/m);
  expect(run.output).not.toMatch(/Validation failed|You have \d+ warning/);
  expect(run.output).toContain('Your API description is valid');
  expect(run.code).toBe(0);
});
