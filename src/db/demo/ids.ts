/**
 * Ids of the demo data. The organization and brand ids are fixed by the demo contract; every other id
 * is derived from a readable name, so the same data gets the same ids on every run and machine.
 */
import { createHash } from 'node:crypto';

export type DemoBrandKey = 'lisbon' | 'tokyo' | 'kayak';

/** A UUID-shaped id from the SHA-1 of `name` (version nibble 5 and RFC 4122 variant bits, like UUID v5). */
export function stableId(name: string): string {
  const bytes = createHash('sha1').update(`tessera-demo/${name}`).digest().subarray(0, 16);
  bytes[6] = (bytes[6]! & 0x0f) | 0x50;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** The id of a demo row of `table`, named by its brand and a key unique within that brand and table. */
export const demoId = (brand: DemoBrandKey, table: string, key: string): string => stableId(`${brand}/${table}/${key}`);

/**
 * Ids of the events of the demo row named `key` (a booking or waitlist entry), one per event type: the
 * event ids are as stable as the rows they are about.
 */
export const demoEventIds =
  (brand: DemoBrandKey, key: string) =>
  (type: string): string =>
    demoId(brand, 'event', `${key}/${type}`);

const experience = (brand: DemoBrandKey, slug: string) => demoId(brand, 'experience', slug);
const listing = (brand: DemoBrandKey, slug: string) => demoId(brand, 'listing', slug);

export const demoIds = {
  organization: '6f1c0a52-3d4e-4c1a-9b7e-0a0000000001',
  brands: {
    lisbon: '6f1c0a52-3d4e-4c1a-9b7e-0b0000000001',
    tokyo: '6f1c0a52-3d4e-4c1a-9b7e-0b0000000002',
    kayak: '6f1c0a52-3d4e-4c1a-9b7e-0b0000000003',
  },
  experiences: {
    /** Lisbon: about 60 reviews, several pages of them. */
    tram28PhotoWalk: experience('lisbon', 'tram-28-photo-walk'),
    alfamaFadoNight: experience('lisbon', 'alfama-fado-night'),
    /** Lisbon: bookable, with custom questions of every field type, scope and a conditional one. */
    tagusSunsetSail: experience('lisbon', 'tagus-sunset-sail'),
    pastelDeNataWorkshop: experience('lisbon', 'pastel-de-nata-workshop'),
    sintraDayTrip: experience('lisbon', 'sintra-day-trip'),
    santosPopularesStreetParty: experience('lisbon', 'santos-populares-street-party'),
    azulejoStudioVisit: experience('lisbon', 'azulejo-studio-visit'),
    tsukijiBreakfastWalk: experience('tokyo', 'tsukiji-breakfast-walk'),
    asakusaTeaCeremony: experience('tokyo', 'asakusa-tea-ceremony'),
    sumidaFireworksCruise: experience('tokyo', 'sumida-fireworks-cruise'),
    seaCaveKayakTour: experience('kayak', 'la-jolla-sea-cave-kayak-tour'),
    sunrisePaddle: experience('kayak', 'mission-bay-sunrise-paddle'),
  },
  listings: {
    tram28PhotoWalk: listing('lisbon', 'tram-28-photo-walk'),
    alfamaFadoNight: listing('lisbon', 'alfama-fado-night'),
    tagusSunsetSail: listing('lisbon', 'tagus-sunset-sail'),
    pastelDeNataWorkshop: listing('lisbon', 'pastel-de-nata-workshop'),
    /** Lisbon: its draft content differs from the published one (title, summary, price). */
    sintraDayTrip: listing('lisbon', 'sintra-day-trip'),
    /** Lisbon: an event listing (12-13 June 2026). */
    santosPopularesStreetParty: listing('lisbon', 'santos-populares-street-party'),
    /** Lisbon: featured but unlisted (shown with the unlisted flag only). */
    azulejoStudioVisit: listing('lisbon', 'azulejo-studio-visit'),
    /** Lisbon: not featured. */
    lxFactoryStreetArt: listing('lisbon', 'lx-factory-street-art'),
    tsukijiBreakfastWalk: listing('tokyo', 'tsukiji-breakfast-walk'),
    asakusaTeaCeremony: listing('tokyo', 'asakusa-tea-ceremony'),
    sumidaFireworksCruise: listing('tokyo', 'sumida-fireworks-cruise'),
    kimonoRental: listing('tokyo', 'kimono-rental'),
    seaCaveKayakTour: listing('kayak', 'la-jolla-sea-cave-kayak-tour'),
    sunrisePaddle: listing('kayak', 'mission-bay-sunrise-paddle'),
    /** Kayak: a resource listing without an experience. */
    singleKayakRental: listing('kayak', 'single-kayak-rental'),
  },
} as const;
