/**
 * Runs the purchase against a gateway and prints what it got as JSON. Defaults: `npm start`'s demo data
 * (Harbor Lisbon's key and its Tram 28 Photo Walk, from tomorrow on for a week).
 */
import { purchase } from './purchase.ts';

const env = process.env;
const today = new Date();
const inDays = (days: number) => new Date(today.getTime() + days * 86_400_000).toISOString().slice(0, 10);

const result = await purchase(
  { baseUrl: env.TESSERA_URL ?? 'http://127.0.0.1:4000', apiKey: env.TESSERA_API_KEY ?? 'sk_test_lisbon_demo' },
  {
    brandId: env.TESSERA_BRAND_ID ?? '6f1c0a52-3d4e-4c1a-9b7e-0b0000000001',
    experienceId: env.TESSERA_EXPERIENCE_ID ?? '18be18fe-251f-5b2a-8c23-ac204fcc8c79',
    from: env.TESSERA_FROM ?? inDays(1),
    to: env.TESSERA_TO ?? inDays(8),
    guests: ['Ana', 'Rui'],
  },
);
console.log(JSON.stringify(result, null, 2));
