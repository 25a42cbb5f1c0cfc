import { randomUUID } from 'node:crypto';
import type { Db } from '../../../src/db/client.ts';
import {
  categories,
  experienceMedia,
  experienceQuestions,
  experiences,
  experienceTranslations,
  experienceVibes,
  hosts,
  media,
  priceTiers,
  questions,
  taxes,
  vibes,
} from '../../../src/db/schema.ts';

type ExperienceInsert = typeof experiences.$inferInsert;

/** A profile picture (hosts, reviewers) as the API shows it. */
export const picture = (id: string) => ({
  id,
  uri: { original: `https://cdn.example.test/${id}.jpg`, '480w': `https://cdn.example.test/${id}-480.jpg` },
});

export function createHost(db: Db, brandId: string, overrides: Partial<typeof hosts.$inferInsert> = {}) {
  const id = overrides.id ?? randomUUID();
  const row = {
    id,
    brandId,
    firstName: 'Rui',
    lastName: 'Costa',
    emailAddress: `host-${id}@host.test`,
    phoneNumber: '',
    description: 'Skipper for twenty years',
    profilePicture: picture(`host-${id}`),
    allowOverlappingBookings: false,
    ...overrides,
  };
  db.insert(hosts).values(row).run();
  return row;
}

export function createCategory(db: Db, brandId: string, name = 'Tours') {
  const row = { id: randomUUID(), brandId, name };
  db.insert(categories).values(row).run();
  return row;
}

export function createVibe(db: Db, brandId: string, name = 'Relaxing') {
  const row = { id: randomUUID(), brandId, name };
  db.insert(vibes).values(row).run();
  return row;
}

export function createMedia(db: Db, brandId: string, overrides: Partial<typeof media.$inferInsert> = {}) {
  const id = overrides.id ?? randomUUID();
  const row = {
    id,
    brandId,
    type: 'image',
    altText: null as string | null,
    renditions: [
      { resolution: 'original', url: `https://cdn.example.test/${id}.jpg`, type: 'image/jpeg' },
      { resolution: '480w', url: `https://cdn.example.test/${id}-480.webp`, type: 'image/webp' },
    ],
    ...overrides,
  };
  db.insert(media).values(row).run();
  return row;
}

export interface ExperienceOptions {
  /** An existing host (default: a new one). */
  host?: ReturnType<typeof createHost>;
  /** An existing category (default: a new "Boat Tours"). */
  category?: ReturnType<typeof createCategory>;
  /** Number of pictures besides the cover, which every experience has (default 2). */
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
  const host = options.host ?? createHost(db, brandId);
  const category = options.category ?? createCategory(db, brandId, 'Boat Tours');
  const id = overrides.id ?? randomUUID();
  const row = {
    id,
    brandId,
    hostId: host.id,
    categoryId: category.id,
    slug: `sunset-sail-${id}`,
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
  for (const [i, shot] of [...pictures.entries()].reverse()) {
    db.insert(experienceMedia).values({ experienceId: id, mediaId: shot.id, role: 'picture', position: i + 1 }).run();
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
