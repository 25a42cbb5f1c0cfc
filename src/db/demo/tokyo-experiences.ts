/** Harbor Tokyo's experiences (JPY has no minor unit: 8000 is ¥8,000; consumption tax 10 %). */
import type { ExperienceSpec } from './catalog-types.ts';

const zone = 'Asia/Tokyo';
const TAX: Array<[string, number]> = [['Consumption tax', 1000]];

export const tokyoExperiences: ExperienceSpec[] = [
  {
    slug: 'tsukiji-breakfast-walk',
    title: 'Tsukiji Breakfast Walk',
    headline: 'Tamagoyaki, tuna and tea: breakfast through the Tsukiji outer market',
    description:
      'Meet Kenji at Tsukiji Hongan-ji and graze your way through the outer market before the crowds: sweet rolled ' +
      'omelette on a stick, fresh tuna over rice, grilled scallops and a cup of sencha from a century-old tea shop.',
    healthAndSafety: 'Contains fish and shellfish; tell us about allergies and we will adapt the stops. Narrow, busy lanes.',
    providedItems: ['Seven tastings', 'Green tea', 'Map of the market with shop recommendations'],
    host: 'kenji',
    category: 'Food & drink',
    vibes: ['Foodie', 'Small group'],
    location: {
      name: 'Tsukiji Hongan-ji main gate',
      latitude: '35.6665',
      longitude: '139.7724',
      timezoneId: zone,
      additionalInfo: 'Exit 1 of Tsukiji station (Hibiya line), then cross the street to the temple gate.',
    },
    maxParticipantsCount: 8,
    sessionDurationMinutes: 180,
    bookingAvailabilityMode: 'group',
    type: 'food-tour',
    paymentMethods: ['credit-card', 'regional-processor'],
    minimumRequiredToBook: 1,
    maximumAllowedToBook: 6,
    priceTiers: [
      ['Adult', 12000],
      ['Child', 6000],
    ],
    taxes: TAX,
    pictures: [
      { slug: 'tsukiji-tamagoyaki', alt: 'Rolled omelette being sliced at a Tsukiji stall' },
      { slug: 'tsukiji-tuna-bowl', alt: 'Bowl of fresh tuna over rice' },
      { slug: 'tsukiji-market-lane', alt: 'Morning crowd in a Tsukiji outer market lane' },
    ],
    translations: [
      {
        locale: 'ja',
        title: '築地 朝ごはん散歩',
        headline: '玉子焼き、マグロ、お茶：築地場外市場で朝ごはん',
        description: '築地本願寺で集合し、混雑前の場外市場を食べ歩き。玉子焼き、マグロ丼、焼きホタテ、老舗のお茶屋で煎茶を。',
        healthAndSafety: '魚介類を含みます。アレルギーはお知らせください。通路は狭く混雑しています。',
      },
    ],
    reviews: {
      count: 12,
      details: [
        'The tamagoyaki still warm from the pan was unforgettable.',
        'Kenji knew every stall owner by name.',
        'We would never have found the tiny tea shop on our own.',
        'Perfect first morning in Tokyo while still jet-lagged.',
      ],
    },
  },
  {
    slug: 'asakusa-tea-ceremony',
    title: 'Tea Ceremony in Asakusa',
    headline: 'A quiet hour of matcha in a tatami room near Sensō-ji',
    description:
      'Step off the busy Nakamise street into a traditional tea room. Yuki, a teacher of the Urasenke school, guides ' +
      'you through the gestures of the ceremony, seasonal wagashi sweets and whisking your own bowl of matcha.',
    healthAndSafety: 'Guests sit on tatami; low stools are available for anyone who cannot kneel. Socks required.',
    providedItems: ['Matcha', 'Seasonal wagashi', 'Use of a yukata for the ceremony'],
    host: 'yuki',
    category: 'Culture',
    vibes: ['Traditional', 'Small group'],
    location: {
      name: 'Tea room, Asakusa 2-chome',
      latitude: '35.7148',
      longitude: '139.7967',
      timezoneId: zone,
      additionalInfo: 'Five minutes from the Kaminarimon gate; the entrance is behind a noren curtain with a tea whisk.',
    },
    maxParticipantsCount: 6,
    sessionDurationMinutes: 60,
    bookingAvailabilityMode: 'non-restricted',
    type: 'class',
    paymentMethods: ['credit-card', 'regional-processor', 'cash'],
    minimumRequiredToBook: 1,
    maximumAllowedToBook: 6,
    priceTiers: [
      ['Adult', 8000],
      ['Child', 4000],
      ['Senior', 7000],
    ],
    taxes: TAX,
    pictures: [
      { slug: 'tea-whisking-matcha', alt: 'Hands whisking matcha in a black bowl' },
      { slug: 'tea-wagashi', alt: 'Seasonal wagashi sweets on a lacquer plate' },
    ],
    translations: [
      {
        locale: 'ja',
        title: '浅草の茶道体験',
        headline: '浅草寺近くの茶室で抹茶の静かなひととき',
        description: '仲見世の喧騒を離れ、伝統的な茶室へ。裏千家の先生が作法、季節の和菓子、抹茶の点て方を案内します。',
        healthAndSafety: '畳に座ります。正座が難しい方には低い椅子をご用意します。靴下をご着用ください。',
      },
    ],
    reviews: {
      count: 7,
      details: [
        'Such a calm hour after the crowds at Sensō-ji.',
        'Whisking my own matcha was harder than it looks.',
        'Yuki explained every gesture with so much patience.',
      ],
    },
  },
  {
    slug: 'golden-gai-izakaya-night',
    title: 'Shinjuku Izakaya and Golden Gai Night',
    headline: 'Yakitori alleys and six-seat bars with a local',
    description:
      'Start with yakitori and a highball in Omoide Yokocho, then squeeze into two of the tiny bars of Golden Gai ' +
      'that welcome visitors, with Kenji translating the menus and the stories of the owners.',
    healthAndSafety: 'Adults only (20+). Bars are very small and some allow smoking.',
    providedItems: ['Yakitori set', 'Three drinks', 'Bar cover charges'],
    host: 'kenji',
    category: 'Food & drink',
    vibes: ['Night out', 'Foodie'],
    location: {
      name: 'Omoide Yokocho entrance, Nishi-Shinjuku',
      latitude: '35.6929',
      longitude: '139.6995',
      timezoneId: zone,
      additionalInfo: 'Meet under the Omoide Yokocho sign by JR Shinjuku west exit at 19:00.',
    },
    maxParticipantsCount: 6,
    sessionDurationMinutes: 180,
    bookingAvailabilityMode: 'group',
    type: 'food-tour',
    paymentMethods: ['credit-card'],
    minimumRequiredToBook: 2,
    maximumAllowedToBook: 6,
    priceTiers: [['Adult', 15000]],
    taxes: TAX,
    pictures: [{ slug: 'golden-gai-lanterns', alt: 'Red lanterns over a narrow Golden Gai alley' }],
    reviews: {
      count: 5,
      details: [
        'The yakitori in Omoide Yokocho was the best we had in Japan.',
        'We would never have dared to walk into those bars on our own.',
      ],
    },
  },
  {
    slug: 'sumida-fireworks-cruise',
    title: 'Sumida River Fireworks Cruise',
    headline: 'Watch the Sumidagawa fireworks from a yakatabune with dinner on board',
    description:
      'On the last Saturday of July the Sumida River lights up with 20,000 fireworks. Watch them from a traditional ' +
      'yakatabune houseboat, with tempura cooked on board and free-flowing drinks.',
    healthAndSafety: 'Shoes off on board; seating is on cushions at low tables. Boarding closes 30 minutes before departure.',
    providedItems: ['Tempura dinner', 'Drinks', 'Reserved seat on the boat'],
    host: 'yuki',
    category: 'On the water',
    vibes: ['Traditional', 'Night out'],
    location: {
      name: 'Yanagibashi pier, Taitō',
      latitude: '35.6963',
      longitude: '139.7863',
      timezoneId: zone,
      additionalInfo: 'Five minutes from Asakusabashi station; show your ticket at the pier.',
    },
    maxParticipantsCount: 40,
    sessionDurationMinutes: 150,
    bookingAvailabilityMode: 'non-restricted',
    type: 'event',
    paymentMethods: ['credit-card', 'regional-processor'],
    maximumAllowedToBook: 8,
    priceTiers: [
      ['Adult', 28000],
      ['Child', 15000],
    ],
    taxes: TAX,
    pictures: [{ slug: 'sumida-yakatabune-fireworks', alt: 'Fireworks above yakatabune boats on the Sumida River' }],
  },
];
