/**
 * `npm run catalog -- export --brand <brandId> --out catalog.json` and
 * `npm run catalog -- import --file catalog.json [--brand <brandId>] [--dry-run]`: a brand's whole catalogue
 * to and from a file, through a running gateway's REST API (GET and PUT /v1/brands/{brandId}/catalog), so
 * it goes through the same checks, unit of work and events as any other client. The gateway is
 * TESSERA_URL (default http://127.0.0.1:4000) and the secret key TESSERA_API_KEY (a brand's key, or its
 * organization's). Without --brand, import uses the document's `brandId`. Exits 1 on an error, printing it.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { catalogJsonSchema } from '../domain/catalog/catalog-schema.ts';

const usage =
  'usage: npm run catalog -- export --brand <brandId> [--out file.json]\n' +
  '       npm run catalog -- import --file file.json [--brand <brandId>] [--dry-run]\n' +
  '       npm run catalog -- schema [--out docs/catalog.schema.json]\n' +
  'env: TESSERA_URL (default http://127.0.0.1:4000), TESSERA_API_KEY (a secret key)';

async function main(argv: string[]): Promise<number> {
  const { positionals, values } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { brand: { type: 'string' }, out: { type: 'string' }, file: { type: 'string' }, 'dry-run': { type: 'boolean' } },
  });
  const [command] = positionals;
  if (command === 'schema') {
    const schema = `${JSON.stringify(catalogJsonSchema(), null, 2)}\n`;
    if (values.out) await writeFile(values.out, schema);
    else process.stdout.write(schema);
    return 0;
  }
  const key = process.env.TESSERA_API_KEY;
  const base = (process.env.TESSERA_URL ?? 'http://127.0.0.1:4000').replace(/\/$/, '');
  if (!key) {
    console.error(`TESSERA_API_KEY is not set\n${usage}`);
    return 2;
  }
  const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
  if (command === 'export' && values.brand) {
    const res = await fetch(`${base}/v1/brands/${encodeURIComponent(values.brand)}/catalog`, { headers });
    const text = await res.text();
    if (!res.ok) return failed(res.status, text);
    const pretty = `${JSON.stringify(JSON.parse(text), null, 2)}\n`;
    if (values.out) {
      await writeFile(values.out, pretty);
      console.error(`Wrote the catalogue of brand ${values.brand} to ${values.out}`);
    } else process.stdout.write(pretty);
    return 0;
  }
  if (command === 'import' && values.file) {
    const text = await readFile(values.file, 'utf8');
    const brandId = values.brand ?? (JSON.parse(text) as { brandId?: string }).brandId;
    if (!brandId) {
      console.error(`The document names no brandId: pass --brand\n${usage}`);
      return 2;
    }
    const query = values['dry-run'] ? '?dryRun=true' : '';
    const res = await fetch(`${base}/v1/brands/${encodeURIComponent(brandId)}/catalog${query}`, { method: 'PUT', headers, body: text });
    const answer = await res.text();
    if (!res.ok) return failed(res.status, answer);
    const { data } = JSON.parse(answer) as { data: { dryRun: boolean; summary: Record<string, number>; changes: unknown[] } };
    process.stdout.write(`${JSON.stringify(data, null, 2)}\n`);
    const { created, updated, unchanged } = data.summary;
    console.error(
      `${data.dryRun ? 'Dry run (nothing written): would create' : 'Created'} ${created}, updated ${updated}, unchanged ${unchanged}`,
    );
    return 0;
  }
  console.error(usage);
  return 2;
}

function failed(status: number, body: string): number {
  console.error(`The gateway answered ${status}: ${body}`);
  return 1;
}

process.exitCode = await main(process.argv.slice(2));
