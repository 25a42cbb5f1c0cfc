import { portOf } from '../../support/db.ts';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authenticate } from '../../../src/auth/authenticate.ts';
import { runKeysCli } from '../../../src/cli/keys.ts';
import { closeDatabase, openDatabase } from '../../../src/db/sqlite/client.ts';
import { createBrand, createOrganization } from '../../../fixtures/factories/brands.ts';

const dir = mkdtempSync(join(tmpdir(), 'tessera-keys-'));
const file = join(dir, 'keys.sqlite');
let brandId = '';
let organizationId = '';

beforeAll(() => {
  process.env.DATABASE_URL = file;
  const db = openDatabase(file);
  organizationId = createOrganization(db).id;
  brandId = createBrand(db, { organizationId }).id;
  closeDatabase(db);
});
afterAll(() => {
  delete process.env.DATABASE_URL;
  rmSync(dir, { recursive: true, force: true });
});

async function run(...argv: string[]) {
  const lines: string[] = [];
  const code = await runKeysCli(argv, (line) => lines.push(line));
  return { code, output: lines.join('\n') };
}

const principalFor = async (secret: string) => {
  const db = openDatabase(file);
  try {
    return await authenticate(portOf(db), { authorization: `Bearer ${secret}` });
  } finally {
    closeDatabase(db);
  }
};

describe('npm run keys', () => {
  it('creates a brand key whose secret is printed once and authenticates, then revokes it', async () => {
    const created = await run('create', '--brand', brandId, '--label', 'channel manager');
    expect(created.code).toBe(0);
    const secret = /Secret \(shown once, store it now\): (sk_test_\S+)/.exec(created.output)?.[1];
    const id = /Created brand key (\S+)/.exec(created.output)?.[1];
    expect(secret).toMatch(/^sk_test_[A-Za-z0-9_-]{32}$/);
    expect(await principalFor(secret!)).toMatchObject({ kind: 'brand', keyId: id, brandIds: [brandId] });

    const listed = await run('list');
    expect(listed.output).toContain(`${id}  ${secret!.slice(0, 12)}…  brand ${brandId}  active  channel manager`);
    expect(listed.output).not.toContain(secret);

    expect((await run('revoke', id!)).output).toBe(`Revoked key ${id}`);
    await expect(principalFor(secret!)).rejects.toThrow('The API key is not valid');
    expect(await run('revoke', id!)).toEqual({ code: 1, output: `Error: No active API key has id ${id}` });
  });

  it('creates an organization key acting for the organization’s brands', async () => {
    const created = await run('create', '--organization', organizationId);
    const secret = /Secret .*: (\S+)/.exec(created.output)?.[1];
    expect(await principalFor(secret!)).toMatchObject({ kind: 'organization', organizationId, brandIds: [brandId] });
  });

  it('refuses an unknown brand, and prints usage for wrong arguments', async () => {
    expect(await run('create', '--brand', '00000000-0000-4000-8000-000000000000')).toEqual({
      code: 1,
      output: 'Error: Brand 00000000-0000-4000-8000-000000000000 was not found',
    });
    expect((await run('create')).code).toBe(2);
    expect((await run('create', '--brand', brandId, '--organization', organizationId)).code).toBe(2);
    const unknownFlag = await run('create', '--shop', 'x');
    expect(unknownFlag.code).toBe(2);
    expect(unknownFlag.output).toContain('Usage:');
  });
});
