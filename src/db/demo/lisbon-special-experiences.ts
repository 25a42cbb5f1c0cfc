/**
 * Harbor Lisbon's experiences behind its special listings: a festival event, an exclusive unlisted studio
 * visit and a walk that is not featured.
 */
import type { ExperienceSpec } from './catalog-types.ts';

const zone = 'Europe/Lisbon';

export const lisbonSpecialExperiences: ExperienceSpec[] = [
  {
    slug: 'santos-populares-street-party',
    title: 'Santos Populares Street Party',
    headline: 'Saint Anthony’s night in Alfama: sardines, marchas and arraiais',
    description:
      'On the eve of Saint Anthony, Lisbon’s oldest neighbourhood turns into one long street party. Rui walks you ' +
      'through the best arraiais, finds you a spot for the marchas populares on Avenida da Liberdade and makes sure ' +
      'you try grilled sardines on bread and a cup of sangria.',
    healthAndSafety: 'Very crowded streets until late. Keep valuables zipped away; the route avoids the busiest stairways.',
    providedItems: ['Sardine sandwich', 'Two drinks', 'Basil pot (manjerico) to take home'],
    host: 'rui',
    category: 'Music & culture',
    vibes: ['Local favourite'],
    location: {
      name: 'Largo de São Miguel, Alfama',
      latitude: '38.7114',
      longitude: '-9.1287',
      timezoneId: zone,
      additionalInfo: 'Meet by the church steps at 20:00.',
    },
    maxParticipantsCount: 14,
    sessionDurationMinutes: 180,
    bookingAvailabilityMode: 'non-restricted',
    type: 'event',
    paymentMethods: ['credit-card'],
    maximumAllowedToBook: 6,
    priceTiers: [
      ['Adult', 3500],
      ['Child', 1500],
    ],
    taxes: [['IVA', 2300]],
    pictures: [
      { slug: 'santos-arraial-lights', alt: 'Paper garlands and lights over an Alfama street' },
      { slug: 'santos-sardines-grill', alt: 'Sardines on a street grill' },
    ],
  },
  {
    slug: 'azulejo-studio-visit',
    title: 'Private Azulejo Studio Visit',
    headline: 'Paint your own tile with a master azulejo painter',
    description:
      'A private morning in a working tile studio next to the National Tile Museum. Learn how the blue-and-white ' +
      'azulejos are glazed and fired, then paint your own tile; it is fired and delivered to your hotel two days later.',
    healthAndSafety: 'Glazes are non-toxic but stain clothes: aprons provided. Not suitable for children under 8.',
    providedItems: ['Apron', 'Tile and glazes', 'Firing and delivery to your hotel'],
    host: 'ines',
    category: 'Music & culture',
    vibes: ['Hands-on', 'Small group'],
    location: {
      name: 'Tile studio, Rua da Madre de Deus, Xabregas',
      latitude: '38.7247',
      longitude: '-9.1137',
      timezoneId: zone,
      additionalInfo: 'Green door next to the National Tile Museum entrance.',
    },
    maxParticipantsCount: 4,
    sessionDurationMinutes: 90,
    bookingAvailabilityMode: 'private',
    type: 'workshop',
    paymentMethods: ['credit-card', 'room-charge'],
    minimumRequiredToBook: 1,
    maximumAllowedToBook: 4,
    isExclusive: true,
    isUnlisted: true,
    priceTiers: [['Private group (up to 4)', 24000]],
    taxes: [['IVA', 2300]],
    pictures: [
      { slug: 'azulejo-painting', alt: 'Brush painting a blue pattern on a white tile' },
      { slug: 'azulejo-kiln', alt: 'Finished tiles cooling by the kiln' },
    ],
    reviews: {
      count: 3,
      details: [
        'Having the studio to ourselves felt like a real privilege.',
        'Our tile arrived at the hotel beautifully fired, just as promised.',
      ],
    },
  },
  {
    slug: 'lx-factory-street-art',
    title: 'LX Factory and Alcântara Street Art',
    headline: 'Murals, printing presses and a rooftop view of the bridge',
    description:
      'Walk the old industrial quarter under the 25 de Abril bridge: the giant murals of Alcântara, the bookshop in ' +
      'a former printing hall and the rooftop of LX Factory, with stories from the artists Inês has photographed for years.',
    healthAndSafety: 'Mostly flat; the rooftop is reached by stairs only.',
    providedItems: ['Coffee at the rooftop bar'],
    host: 'ines',
    category: 'Walking tours',
    vibes: ['Photogenic'],
    location: {
      name: 'LX Factory, Rua Rodrigues de Faria 103',
      latitude: '38.7036',
      longitude: '-9.1788',
      timezoneId: zone,
      additionalInfo: 'Meet at the main gate.',
    },
    maxParticipantsCount: 12,
    sessionDurationMinutes: 120,
    bookingAvailabilityMode: 'group',
    type: 'tour',
    paymentMethods: ['credit-card', 'pay-upon-arrival'],
    priceTiers: [
      ['Adult', 3000],
      ['Child', 1500],
    ],
    taxes: [['IVA', 2300]],
    pictures: [{ slug: 'lx-factory-mural', alt: 'A giant mural on a warehouse wall in Alcântara' }],
  },
];
