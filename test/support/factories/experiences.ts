import { randomUUID } from 'node:crypto';
import type { Db } from '../../../src/db/client.ts';
import { insertReviews } from '../../../src/db/queries/reviews-write.ts';
import {
  experienceMedia,
  experienceQuestions,
  experiences,
  experienceTranslations,
  experienceVibes,
  priceTiers,
  questions,
  taxes,
} from '../../../src/db/schema.ts';
import { createCategory, createHost, createMedia, createVibe } from './listings.ts';
import { createReviewer, reviewRow } from './reviews.ts';

export { createCategory, createHost, createMedia, createVibe };

type ExperienceInsert = typeof experiences.$inferInsert;

export interface ExperienceOptions {
  hostId?: string;
  categoryId?: string;
  /** Number of pictures besides the cover (default 2). */
  pictures?: number;
  /** Vibe names, in position order (default none). */
  vibes?: string[];
  priceTiers?: Array<{ name: string; priceMinor: number }>;
  taxes?: Array<{ name: string; rateBasisPoints: number }>;
  translations?: Array<{ locale: string; title: string; headline: string; description: string; healthAndSafety: string }>;
}

/**
 * A complete experience: host, category, a cover and pictures, price tiers and taxes, vibes and
 * translations. Child rows are inserted in reverse position order so tests prove the API sorts them.
 */
export function createExperience(db: Db, brandId: string, overrides: Partial<ExperienceInsert> = {}, options: ExperienceOptions = {}) {
  const host = options.hostId ? null : createHost(db, brandId);
  const category = options.categoryId ? null : createCategory(db, brandId, 'Boat Tours');
  const id = overrides.id ?? randomUUID();
  const row = {
    id,
    brandId,
    hostId: options.hostId ?? host!.id,
    categoryId: options.categoryId ?? category!.id,
    slug: `sunset-sail-${id.slice(0, 8)}`,
    title: 'Sunset Sail',
    headline: 'The river at dusk',
    description: 'Two hours on the Tagus.',
    healthAndSafety: 'Life jackets provided.',
    providedItems: ['Life jacket', 'Drinks'],
    locationName: 'Doca de Alcântara',
    longitude: '-9.1393',
    latitude: '38.7223',
    timezoneId: 'Europe/Lisbon',
    locationAdditionalInfo: 'Pier 3',
    maxParticipantsCount: 12,
    sessionDurationMinutes: 120,
    bookingAvailabilityMode: 'group' as const,
    type: 'experience',
    paymentMethods: ['credit-card', 'room-charge'],
    integrationMeta: [{ type: 'analytics', key: 'ga', value: { trackingId: 'G-1', enabled: true } }],
    ...overrides,
  };
  db.insert(experiences).values(row).run();

  const cover = createMedia(db, brandId);
  db.insert(experienceMedia).values({ experienceId: id, mediaId: cover.id, role: 'cover', position: 0 }).run();
  const pictures = Array.from({ length: options.pictures ?? 2 }, () => createMedia(db, brandId));
  for (const [i, picture] of [...pictures.entries()].reverse()) {
    db.insert(experienceMedia).values({ experienceId: id, mediaId: picture.id, role: 'picture', position: i + 1 }).run();
  }
  const vibes = (options.vibes ?? []).map((name) => createVibe(db, brandId, name));
  for (const [i, vibe] of [...vibes.entries()].reverse()) {
    db.insert(experienceVibes).values({ experienceId: id, vibeId: vibe.id, position: i }).run();
  }
  const tiers = options.priceTiers ?? [{ name: 'Adult', priceMinor: 4550 }, { name: 'Child', priceMinor: 2000 }];
  for (const [i, tier] of [...tiers.entries()].reverse()) {
    db.insert(priceTiers).values({ id: randomUUID(), experienceId: id, ...tier, position: i }).run();
  }
  const taxRows = options.taxes ?? [{ name: 'VAT', rateBasisPoints: 2300 }];
  for (const [i, tax] of [...taxRows.entries()].reverse()) {
    db.insert(taxes).values({ id: randomUUID(), experienceId: id, ...tax, position: i }).run();
  }
  for (const translation of options.translations ?? []) {
    db.insert(experienceTranslations).values({ experienceId: id, ...translation }).run();
  }
  return { experience: row, host, category, cover, pictures, vibes };
}

/** Writes reviews with these (rating, recommendability) pairs through the db layer's only review writer. */
export function createExperienceReviews(db: Db, target: { brandId: string; experienceId: string; hostId: string }, scores: Array<[number, number]>) {
  const rows = scores.map(([rating, recommendability]) => {
    const reviewer = createReviewer(db, target.brandId);
    return reviewRow({ experienceId: target.experienceId, reviewerId: reviewer.id, hostId: target.hostId, rating, recommendability });
  });
  insertReviews(db, rows);
}

export function createQuestion(db: Db, brandId: string, overrides: Partial<typeof questions.$inferInsert> = {}) {
  const row = {
    id: randomUUID(),
    brandId,
    prompt: 'Any allergies?',
    fieldType: 'input' as const,
    options: null,
    termsAndConditions: null,
    ...overrides,
  };
  db.insert(questions).values(row).run();
  return row;
}

export function assignQuestion(db: Db, experienceId: string, questionId: string, overrides: Partial<typeof experienceQuestions.$inferInsert> = {}) {
  const row = {
    id: randomUUID(),
    experienceId,
    questionId,
    isRequired: false,
    isActive: true,
    order: 1,
    scope: 'participant' as const,
    conditions: null,
    conditionsMatchType: null,
    ...overrides,
  };
  db.insert(experienceQuestions).values(row).run();
  return row;
}
