/**
 * Demo sessions: every bookable experience runs at its usual local times on each of the next
 * SESSION_DAYS days, counted from the seeder's "today" in the experience's own zone.
 */
import { DateTime } from 'luxon';
import { localToUtc } from '../../domain/shared/local-time.ts';
import type { NewRow, Seeder } from '../tables.ts';
import type { BrandCatalog, ExperienceSpec } from './catalog-types.ts';
import { catalogIds } from './catalog.ts';
import { demoId, type DemoBrandKey } from './ids.ts';

/** Days with sessions, today included. */
export const SESSION_DAYS = 60;

/**
 * Local start times (HH:MM, the experience's zone) of each experience's daily sessions. Evening and
 * full-day experiences run once a day. No time falls in a DST gap (01:00-03:00) of any demo zone.
 */
export const dailyStartTimes: Readonly<Record<string, readonly string[]>> = {
  'tram-28-photo-walk': ['09:30', '15:00'],
  'alfama-fado-night': ['20:30'],
  'tagus-sunset-sail': ['15:30', '18:00'],
  'pastel-de-nata-workshop': ['10:00', '15:00'],
  'sintra-day-trip': ['08:30'],
  'santos-populares-street-party': ['19:00'],
  'azulejo-studio-visit': ['11:00', '15:30'],
  'lx-factory-street-art': ['10:30', '16:00'],
  'tsukiji-breakfast-walk': ['07:00', '09:30'],
  'asakusa-tea-ceremony': ['10:00', '14:00'],
  'golden-gai-izakaya-night': ['19:00'],
  'sumida-fireworks-cruise': ['18:30'],
  'la-jolla-sea-cave-kayak-tour': ['09:00', '13:00'],
  'mission-bay-sunrise-paddle': ['06:30'],
  'leopard-shark-kayak-snorkel': ['10:00', '14:00'],
};

export const sessionId = (brand: DemoBrandKey, experienceSlug: string, startLocal: string) =>
  demoId(brand, 'session', `${experienceSlug}/${startLocal}`);

/** The local date (YYYY-MM-DD) `offset` days after the local date of `now` in `zone`. */
export function localDate(now: Date, zone: string, offset: number): string {
  return DateTime.fromJSDate(now, { zone }).startOf('day').plus({ days: offset }).toISODate()!;
}

function startTimesOf(spec: ExperienceSpec): readonly string[] {
  const times = dailyStartTimes[spec.slug];
  if (!times) throw new Error(`Demo experience ${spec.slug} has no daily start times`);
  return times;
}

function sessionRows(catalog: BrandCatalog, spec: ExperienceSpec, now: Date): Array<NewRow<'sessions'>> {
  const zone = spec.location.timezoneId;
  const experienceId = catalogIds(catalog.brand).experience(spec.slug);
  return Array.from({ length: SESSION_DAYS }, (_, day) => localDate(now, zone, day)).flatMap((date) =>
    startTimesOf(spec).map((time) => {
      const startLocal = `${date}T${time}:00`;
      return {
        id: sessionId(catalog.brand, spec.slug, startLocal),
        experienceId,
        startLocal,
        startsAt: localToUtc(startLocal, zone),
        durationMinutes: spec.sessionDurationMinutes,
        capacity: spec.maxParticipantsCount,
        reserved: 0,
      };
    }),
  );
}

export async function seedSessions(seed: Seeder, catalog: BrandCatalog, now: Date): Promise<void> {
  for (const spec of catalog.experiences) {
    if (spec.isBookable === false) continue;
    await seed.insert('sessions', sessionRows(catalog, spec, now));
  }
}
