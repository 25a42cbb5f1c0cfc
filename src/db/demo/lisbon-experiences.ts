/** Harbor Lisbon's experiences (EUR, prices in cents; IVA at 23 %, 6 % for passenger boats). */
import type { ExperienceSpec } from './catalog-types.ts';

const zone = 'Europe/Lisbon';
const IVA: Array<[string, number]> = [['IVA', 2300]];
const cardOrRoom = ['credit-card', 'room-charge'];

export const lisbonExperiences: ExperienceSpec[] = [
  {
    slug: 'tram-28-photo-walk',
    title: 'Tram 28 Photo Walk',
    headline: 'Photograph Lisbon from and around its most famous tram line',
    description:
      'Ride the yellow Remodelado tram from Martim Moniz up through Graça and Alfama, hopping off at the best viewpoints. ' +
      'Inês shows you how to shoot in harsh Atlantic light, frame the trams in narrow streets and photograph people respectfully. ' +
      'Any camera works, phones included.',
    healthAndSafety: 'Steep cobbled streets and stairs: wear shoes with grip. Tram tickets are included; the tram can be crowded.',
    providedItems: ['Tram tickets', 'Printed shot list', 'Bottle of water'],
    host: 'ines',
    category: 'Walking tours',
    vibes: ['Photogenic', 'Small group'],
    location: {
      name: 'Praça Martim Moniz, tram 28 stop',
      latitude: '38.7158',
      longitude: '-9.1364',
      timezoneId: zone,
      additionalInfo: 'Meet at the tram 28 stop opposite the Hotel Mundial, look for the blue Harbor umbrella.',
    },
    maxParticipantsCount: 8,
    sessionDurationMinutes: 150,
    bookingAvailabilityMode: 'group',
    type: 'tour',
    paymentMethods: cardOrRoom,
    integrationMeta: [{ type: 'analytics', key: 'google_analytics', value: { measurementId: 'G-HBRLIS2025' } }],
    minimumRequiredToBook: 1,
    maximumAllowedToBook: 8,
    displayedCapacity: 8,
    priceTiers: [
      ['Adult', 4500],
      ['Child', 2500],
      ['Senior', 3800],
    ],
    taxes: IVA,
    pictures: [
      { slug: 'tram-28-graca-curve', alt: 'Tram 28 rounding the curve below the Graça viewpoint' },
      { slug: 'tram-28-window-portrait', alt: 'A guest photographing Alfama through a tram window' },
      { slug: 'tram-28-portas-do-sol', alt: 'Rooftops of Alfama seen from Portas do Sol' },
    ],
    translations: [
      {
        locale: 'pt',
        title: 'Passeio fotográfico no elétrico 28',
        headline: 'Fotografe Lisboa a partir da sua linha de elétrico mais famosa',
        description:
          'Suba no elétrico amarelo desde o Martim Moniz, pela Graça e por Alfama, saindo nos melhores miradouros. ' +
          'A Inês ensina a fotografar com a luz forte do Atlântico e a enquadrar os elétricos nas ruas estreitas.',
        healthAndSafety: 'Ruas íngremes de calçada e escadas: use calçado com aderência. Os bilhetes do elétrico estão incluídos.',
      },
    ],
    reviews: {
      count: 60,
      details: [
        'The stop at Portas do Sol gave me my favourite photo of the whole holiday.',
        'I only had my phone and still came home with pictures I am proud of.',
        'Riding the tram up to Graça while learning where to stand for the shot was great fun.',
        'The tips about shooting into the sun on the Alfama stairs changed how I take pictures.',
        'We skipped the tourist queue at Martim Moniz, which alone was worth it.',
        'The small group meant everyone got time to frame their own shots.',
        'Loved the quiet side streets behind the Sé that we would never have found alone.',
      ],
    },
  },
  {
    slug: 'alfama-fado-night',
    title: 'Alfama Fado Night',
    headline: 'Dinner and live fado in a family-run tasca',
    description:
      'An evening in the lanes where fado was born. Start with a short walk past the Fado Museum, then sit down at a ' +
      'twelve-table tasca for petiscos, grilled sardines and vinho verde while two fadistas and a Portuguese guitar play.',
    healthAndSafety: 'The tasca is up a flight of steps. Tell us about allergies when booking; the menu has a vegetarian option.',
    providedItems: ['Three-course dinner', 'Half a bottle of wine per person', 'Live fado performance'],
    host: 'rui',
    category: 'Music & culture',
    vibes: ['Romantic', 'Local favourite'],
    location: {
      name: 'Largo do Chafariz de Dentro, Alfama',
      latitude: '38.7115',
      longitude: '-9.1273',
      timezoneId: zone,
      additionalInfo: 'Meet at the fountain in front of the Fado Museum at 19:30.',
    },
    maxParticipantsCount: 12,
    sessionDurationMinutes: 150,
    bookingAvailabilityMode: 'group',
    type: 'dining',
    paymentMethods: cardOrRoom,
    minimumRequiredToBook: 1,
    maximumAllowedToBook: 6,
    priceTiers: [
      ['Adult', 7900],
      ['Child', 3900],
    ],
    taxes: [['IVA (restaurant)', 1300]],
    pictures: [
      { slug: 'fado-tasca-guitar', alt: 'Portuguese guitar player in a candle-lit tasca' },
      { slug: 'fado-alfama-lane', alt: 'Alfama lane at night with washing lines overhead' },
    ],
    translations: [
      {
        locale: 'pt',
        title: 'Noite de fado em Alfama',
        headline: 'Jantar e fado ao vivo numa tasca familiar',
        description:
          'Uma noite nas ruelas onde nasceu o fado: um pequeno passeio pelo Museu do Fado e depois petiscos, ' +
          'sardinhas e vinho verde numa tasca de doze mesas, com dois fadistas e guitarra portuguesa.',
        healthAndSafety: 'A tasca fica no cimo de uma escadaria. Indique alergias na reserva; há opção vegetariana.',
      },
    ],
    reviews: {
      count: 8,
      details: [
        'When the lights went down and the first fado started, the whole room went silent.',
        'The grilled sardines and the vinho verde were perfect.',
        'It felt like a neighbourhood evening, not a show for tourists.',
        'Rui explained the story behind each song between sets.',
      ],
    },
  },
  {
    slug: 'tagus-sunset-sail',
    title: 'Sunset Sail on the Tagus',
    headline: 'Two hours under sail past Belém as the sun goes down',
    description:
      'Board a 40-foot sailing yacht at Doca de Santo Amaro and sail under the 25 de Abril bridge, past the ' +
      'Padrão dos Descobrimentos and Belém Tower while the sun sets over the river mouth. Take the helm if you like.',
    healthAndSafety: 'Life jackets for every guest, including child sizes. Not suitable for guests who cannot climb a short ladder.',
    providedItems: ['Life jackets', 'Glass of Portuguese sparkling wine or juice', 'Light snacks', 'Blankets'],
    host: 'marta',
    category: 'On the water',
    vibes: ['Romantic', 'Photogenic', 'Family friendly'],
    location: {
      name: 'Doca de Santo Amaro, Alcântara',
      latitude: '38.7035',
      longitude: '-9.1750',
      timezoneId: zone,
      additionalInfo: 'Pontoon C, berth 14. Board 15 minutes before departure.',
    },
    maxParticipantsCount: 10,
    sessionDurationMinutes: 120,
    bookingAvailabilityMode: 'group',
    type: 'cruise',
    paymentMethods: ['credit-card', 'room-charge', 'pay-upon-arrival'],
    integrationMeta: [{ type: 'channel', key: 'viator', value: { productCode: '284716P3' } }],
    minimumRequiredToBook: 1,
    maximumAllowedToBook: 10,
    displayedCapacity: 10,
    priceTiers: [
      ['Adult', 6500],
      ['Child', 3500],
      ['Senior', 5500],
    ],
    taxes: [['IVA (passenger transport)', 600]],
    pictures: [
      { slug: 'sail-bridge-sunset', alt: 'Sailing yacht under the 25 de Abril bridge at sunset' },
      { slug: 'sail-belem-tower', alt: 'Belém Tower seen from the deck' },
      { slug: 'sail-helm', alt: 'A guest at the helm with the skipper' },
    ],
    reviews: {
      count: 6,
      details: [
        'Seeing Belém Tower from the water at sunset was magical.',
        'Marta let our daughter steer for ten minutes and she has not stopped talking about it.',
        'The boat was spotless and the blankets came in handy when the wind picked up.',
      ],
    },
  },
  {
    slug: 'pastel-de-nata-workshop',
    title: 'Pastel de Nata Workshop',
    headline: 'Bake the perfect custard tart with a Lisbon pastry chef',
    description:
      'Learn the laminated dough, the lemon-and-cinnamon custard and the scorching-hot oven trick behind a proper ' +
      'pastel de nata. You bake a dozen, eat some warm with a bica and take the rest home in a box.',
    healthAndSafety: 'Contains gluten, eggs and dairy. Aprons provided; closed shoes required in the kitchen.',
    providedItems: ['All ingredients', 'Apron', 'Recipe card', 'Box of tarts to take away', 'Coffee'],
    host: 'rui',
    category: 'Food & drink',
    vibes: ['Hands-on', 'Family friendly'],
    location: {
      name: 'Harbor Kitchen Studio, Rua das Flores 69, Chiado',
      latitude: '38.7095',
      longitude: '-9.1435',
      timezoneId: zone,
      additionalInfo: 'Ring the bell marked "Harbor Kitchen", first floor.',
    },
    maxParticipantsCount: 10,
    sessionDurationMinutes: 120,
    bookingAvailabilityMode: 'non-restricted',
    type: 'workshop',
    paymentMethods: cardOrRoom,
    minimumRequiredToBook: 1,
    maximumAllowedToBook: 6,
    priceTiers: [
      ['Adult', 5900],
      ['Child', 3900],
    ],
    taxes: IVA,
    pictures: [
      { slug: 'nata-tray', alt: 'Tray of freshly baked pastéis de nata' },
      { slug: 'nata-dough', alt: 'Hands rolling laminated dough' },
    ],
    reviews: {
      count: 5,
      details: [
        'My tarts came out with the proper blistered tops.',
        'Rolling the dough into the tins is harder than it looks but great fun.',
        'Warm tarts with a bica at the end was the perfect reward.',
      ],
    },
  },
  {
    slug: 'sintra-day-trip',
    title: 'Sintra Day Trip',
    headline: 'Pena Palace, Quinta da Regaleira and the coast in one day',
    description:
      'Leave the crowds behind with an early start: Pena Palace before the coaches arrive, lunch in Sintra town, ' +
      'the initiation well of Quinta da Regaleira in the afternoon and a stop at Cabo da Roca on the way back.',
    healthAndSafety: 'A full day with about 8 km of walking, some of it uphill. Bring a layer: Sintra is cooler than Lisbon.',
    providedItems: ['Transport in an air-conditioned minivan', 'Pena Palace and Regaleira tickets', 'Bottled water'],
    host: 'marta',
    category: 'Day trips',
    vibes: ['Small group', 'Photogenic'],
    location: {
      name: 'Praça dos Restauradores',
      latitude: '38.7155',
      longitude: '-9.1418',
      timezoneId: zone,
      additionalInfo: 'Pick-up at the obelisk at 08:30 sharp.',
    },
    maxParticipantsCount: 8,
    sessionDurationMinutes: 540,
    bookingAvailabilityMode: 'group',
    type: 'tour',
    paymentMethods: ['credit-card'],
    externalField: { type: 'tripadvisorProductCode', value: '19384P12' },
    minimumRequiredToBook: 2,
    maximumAllowedToBook: 8,
    cancellationPolicy: 'day-trips',
    priceTiers: [
      ['Adult', 7900],
      ['Child', 5500],
      ['Senior', 7000],
    ],
    taxes: IVA,
    pictures: [
      { slug: 'sintra-pena-palace', alt: 'Pena Palace in red and yellow above the forest' },
      { slug: 'sintra-regaleira-well', alt: 'Looking up the spiral initiation well of Quinta da Regaleira' },
      { slug: 'sintra-cabo-da-roca', alt: 'The cliffs and lighthouse of Cabo da Roca' },
    ],
    reviews: {
      count: 4,
      details: [
        'Getting to Pena Palace before the crowds made all the difference.',
        'Walking down the Regaleira well was the highlight for our kids.',
        'Cabo da Roca at the end of the day was a lovely bonus.',
      ],
    },
  },
];
