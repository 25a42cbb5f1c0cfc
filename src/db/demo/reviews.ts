/**
 * Demo reviews, generated deterministically: each review mixes a sentence matching its rating, a sentence
 * about the experience and a closing remark, written by its own guest, at a distinct fixed instant.
 */
import type { ReviewInsert } from '../../domain/catalog/store.ts';
import type { Stores } from '../../domain/shared/database.ts';
import type { Seeder } from '../tables.ts';
import type { BrandCatalog, HostSpec } from './catalog-types.ts';
import { catalogIds } from './catalog.ts';
import { demoId } from './ids.ts';
import { imageRef } from './media.ts';

/** Mostly 4 and 5, a few 3s and one 2 in twenty: an average of 4.4. */
const RATINGS = [5, 5, 4, 5, 5, 3, 4, 5, 5, 4, 5, 5, 4, 5, 2, 5, 4, 5, 3, 5] as const;
const RECOMMENDABILITY: Record<number, readonly number[]> = { 5: [10, 9, 10], 4: [8, 7, 8], 3: [6, 5], 2: [3] };

const OPENERS: Record<number, readonly string[]> = {
  5: [
    'Absolutely the highlight of our trip.',
    'We booked this on a whim and it turned out to be the best thing we did all week.',
    'Worth every cent.',
    'Brilliant from start to finish.',
    'Five stars without hesitation.',
    'I have done a lot of tours and this one is up there with the very best.',
  ],
  4: [
    'Really enjoyable, with a couple of small caveats.',
    'A lovely experience overall.',
    'Very good and well organised.',
    'We had a great time.',
  ],
  3: [
    'Good, but not quite what we expected.',
    'A decent experience, a bit rushed in places.',
    'Fine overall, though the group was larger than we hoped.',
  ],
  2: ['Disappointing for the price.'],
};

const CLOSERS: Record<number, readonly string[]> = {
  5: [
    '{host} made everyone feel welcome.',
    'Thank you {host}, we will be back!',
    'Book it, you will not regret it.',
    'Already recommending it to friends.',
    'You can tell {host} loves sharing this.',
  ],
  4: [
    '{host} knew the answer to every question.',
    'Would happily do it again.',
    'Good value for money.',
    'The meeting point was easy to find.',
  ],
  3: [
    'The meeting point instructions could be clearer.',
    'Probably better suited to first-time visitors than to us.',
    'Nice enough, but I would not rush to repeat it.',
  ],
  2: ['We started late and finished early; hopefully it was an off day.'],
};

const DAY_MS = 86_400_000;
/** Reviews are spread between these instants, newest last. */
const WINDOW_START = Date.UTC(2025, 0, 10, 17, 0);
const WINDOW_MINUTES = 520 * 24 * 60;

const pick = <T>(list: readonly T[], n: number): T => list[n % list.length]!;

const ascii = (s: string) =>
  s
    .normalize('NFD')
    .replace(/[^A-Za-z]/g, '')
    .toLowerCase();

/** The first `count` distinct (first, last) name pairs, walking the two lists at different speeds. */
function guestNames(catalog: BrandCatalog, count: number): Array<[string, string]> {
  const { firstNames, lastNames } = catalog.reviewers;
  const seen = new Set<string>();
  const names: Array<[string, string]> = [];
  for (let j = 0; names.length < count && j < firstNames.length * lastNames.length * 4; j++) {
    const pair: [string, string] = [pick(firstNames, j), pick(lastNames, j + Math.floor(j / firstNames.length))];
    if (seen.has(pair.join(' '))) continue;
    seen.add(pair.join(' '));
    names.push(pair);
  }
  if (names.length < count) throw new Error(`Not enough reviewer names for ${catalog.brand}`);
  return names;
}

function reviewText(n: number, rating: number, details: readonly string[], host: HostSpec): string {
  const opener = pick(OPENERS[rating]!, n);
  const closer = pick(CLOSERS[rating]!, n * 7 + 1).replace('{host}', host.firstName);
  // The experience's details are praise: an unhappy guest does not add one.
  if (rating < 3) return `${opener} ${closer}`;
  const detail = pick(details, n * 3 + Math.floor(n / details.length));
  return `${opener} ${detail} ${closer}`;
}

export async function seedReviews(seed: Seeder, tx: Stores, catalog: BrandCatalog): Promise<void> {
  const { brand, brandId } = catalog;
  const ids = catalogIds(brand);
  const reviewed = catalog.experiences.filter((e) => e.reviews);
  const total = reviewed.reduce((sum, e) => sum + e.reviews!.count, 0);
  const guests = guestNames(catalog, total).map(([firstName, lastName], j) => {
    const slug = `${ascii(firstName)}-${ascii(lastName)}`;
    const id = demoId(brand, 'reviewer', slug);
    return {
      id,
      brandId,
      firstName,
      lastName,
      emailAddress: `${slug.replace('-', '.')}@${pick(['example.com', 'example.org', 'example.net'], j)}`,
      phoneNumber: catalog.reviewers.phone(j),
      // Named by the reviewer's id, never by their name: a public page shows the last name as an initial only.
      profilePicture: imageRef(brand, `reviewers/${id}`),
    };
  });
  await seed.insert('reviewers', guests);

  const rows: ReviewInsert[] = [];
  let guest = 0;
  reviewed.forEach((experience, e) => {
    const plan = experience.reviews!;
    const host = catalog.hosts.find((h) => h.key === experience.host)!;
    const stepMinutes = Math.floor(WINDOW_MINUTES / plan.count);
    for (let i = 0; i < plan.count; i++) {
      const n = i + e * 5;
      const rating = pick(RATINGS, n);
      const reviewedAt = WINDOW_START + (e * 197 + i * stepMinutes + ((i * 137) % 480)) * 60_000;
      rows.push({
        id: demoId(brand, 'review', `${experience.slug}/${i + 1}`),
        experienceId: ids.experience(experience.slug),
        reviewerId: guests[guest++]!.id,
        hostId: ids.host(experience.host),
        rating,
        recommendability: pick(RECOMMENDABILITY[rating]!, i),
        text: reviewText(n, rating, plan.details, host),
        reviewedAt: new Date(reviewedAt).toISOString(),
        experiencedDate: new Date(reviewedAt - (2 + (i % 5)) * DAY_MS - 3 * 3_600_000).toISOString(),
      });
    }
  });
  await tx.reviews.insertReviews(rows);
}
