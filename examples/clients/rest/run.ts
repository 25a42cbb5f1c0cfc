/**
 * Runs the purchase against a gateway and prints its result as JSON. Settings come from the environment:
 * TESSERA_URL, TESSERA_API_KEY, TESSERA_BRAND_ID, TESSERA_EXPERIENCE_ID, TESSERA_FROM and TESSERA_TO.
 */
import { purchase } from './purchase.ts';

function setting(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set`);
  return value;
}

const result = await purchase({
  baseUrl: setting('TESSERA_URL'),
  apiKey: setting('TESSERA_API_KEY'),
  brandId: setting('TESSERA_BRAND_ID'),
  experienceId: setting('TESSERA_EXPERIENCE_ID'),
  from: setting('TESSERA_FROM'),
  to: setting('TESSERA_TO'),
});
process.stdout.write(`${JSON.stringify(result)}\n`);
