import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authenticate } from '../../../src/auth/authenticate.ts';
import { runKeysCli } from '../../../src/cli/keys.ts';
import { freshSharedDb } from '../../support/db.ts';
import { createBrand, createOrganization } from '../../../fixtures/factories/brands.ts';

// The CLI opens the database DATABASE_URL names, as an operator's shell would: one it can open too.
const { db, url } = await freshSharedDb();
const organizationId = (await createOrganization(db)).id;
const brandId = (await createBrand(db, { organizationId })).id;

beforeAll(() => {
  process.env.DATABASE_URL = url;
});
afterAll(() => {
  delete process.env.DATABASE_URL;
});

async function run(...argv: string[]) {
  const lines: string[] = [];
  const code = await runKeysCli(argv, (line) => lines.push(line));
  return { code, output: lines.join('\n') };
}

/** What the app makes of the key: read through a connection of its own, not the CLI's. */
const principalFor = (secret: string, origin?: string) => authenticate(db.database, { authorization: `Bearer ${secret}`, origin });

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

  it('creates a publishable key for the origins given, usable only from them', async () => {
    const created = await run(
      'create',
      '--brand',
      brandId,
      '--publishable',
      '--origin',
      'https://Shop.Example',
      '--origin',
      'http://localhost:5173',
      '--label',
      'storefront',
    );
    expect(created.code).toBe(0);
    const id = /Created publishable key (\S+)/.exec(created.output)?.[1];
    const key =
      /Key \(public: put it in your web pages on https:\/\/shop\.example, http:\/\/localhost:5173\): (pk_test_[A-Za-z0-9_-]{32})$/.exec(
        created.output,
      )?.[1];
    expect(key).toBeDefined();
    expect(await principalFor(key!, 'https://shop.example')).toMatchObject({
      kind: 'publishable',
      keyId: id,
      organizationId: null,
      brandIds: [brandId],
    });
    expect(await principalFor(key!)).toMatchObject({ kind: 'publishable', brandIds: [brandId] });
    await expect(principalFor(key!, 'https://evil.example')).rejects.toMatchObject({
      code: 'FORBIDDEN',
      message: 'This publishable key may not be used from https://evil.example: it lists https://shop.example, http://localhost:5173',
    });
    expect((await run('list')).output).toContain(
      `${id}  ${key!.slice(0, 12)}…  publishable, brand ${brandId}, origins https://shop.example http://localhost:5173  active  storefront`,
    );
  });

  it('refuses a publishable key without an origin, with a path, or for an organization', async () => {
    expect(await run('create', '--brand', brandId, '--publishable')).toEqual({
      code: 1,
      output: 'Error: A publishable key needs at least one origin (--origin https://shop.example)',
    });
    expect(await run('create', '--brand', brandId, '--publishable', '--origin', 'https://shop.example/checkout')).toEqual({
      code: 1,
      output:
        'Error: "https://shop.example/checkout" is not an origin: write it as scheme://host[:port], without a path, e.g. https://shop.example',
    });
    expect((await run('create', '--brand', brandId, '--publishable', '--origin', 'ftp://shop.example')).code).toBe(1);
    expect(await run('create', '--organization', organizationId, '--publishable', '--origin', 'https://shop.example')).toEqual({
      code: 1,
      output: 'Error: A publishable key belongs to one brand: issue it with --brand',
    });
    expect((await run('create', '--brand', brandId, '--origin', 'https://shop.example')).code).toBe(2);
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
