/** Settings of the three demo brands: names, currencies, looks, feature flags, policies and API keys. */
import type { NewRow } from '../tables.ts';
import { demoIds, type DemoBrandKey } from './ids.ts';

type BrandColumns = Pick<
  NewRow<'brands'>,
  | 'name'
  | 'organizationId'
  | 'brandEmail'
  | 'countryCode'
  | 'currency'
  | 'language'
  | 'defaultLocale'
  | 'isLimited'
  | 'featuresActive'
  | 'hostsLimit'
  | 'promotionExclusiveTag'
  | 'customStyle'
  | 'paymentPlatform'
  | 'validateRoomCharge'
  | 'validateMemberCharge'
  | 'serviceVersion'
  | 'products'
  | 'paymentMethods'
>;

export interface BrandSpec extends BrandColumns {
  key: DemoBrandKey;
  id: string;
  look: {
    primaryColor: string;
    secondaryColor: string;
    buttonColor: string;
    primaryFont: string;
    secondaryFont: string;
    theme: string;
  };
  hero: { intro: string; heading: string; description: string; imageAlt: string; videoAlt: string };
  /** The first one is the brand's default policy. */
  cancellationPolicies: Array<Omit<NewRow<'cancellationPolicies'>, 'id' | 'brandId'> & { key: string }>;
  reschedulePolicy: Omit<NewRow<'reschedulePolicies'>, 'id' | 'brandId'>;
  apiKey: { secret: string; label: string };
}

const wallets = { applePay: true, googlePay: true, paypal: false, klarna: false, link: false };

export const brandSpecs: readonly BrandSpec[] = [
  {
    key: 'lisbon',
    id: demoIds.brands.lisbon,
    organizationId: demoIds.organization,
    name: 'Harbor Lisbon',
    brandEmail: 'lisbon@harborcollection.example',
    countryCode: 'PT',
    currency: 'EUR',
    language: 'en',
    defaultLocale: 'en',
    isLimited: false,
    look: {
      primaryColor: '#0B3D5C',
      secondaryColor: '#F2E8D5',
      buttonColor: '#E4572E',
      primaryFont: 'Playfair Display',
      secondaryFont: 'Inter',
      theme: 'light',
    },
    hero: {
      intro: 'Harbor Lisbon',
      heading: 'Lisbon from the river to the rooftops',
      description: 'Small-group walks, fado nights, sunset sails and hands-on workshops, led by people who grew up here.',
      imageAlt: 'Yellow tram climbing a narrow street in Alfama at golden hour',
      videoAlt: 'Sailing boat passing under the 25 de Abril bridge at sunset',
    },
    featuresActive: [
      'reviews',
      'customQuestions',
      'priceTiers',
      'shoppingCart',
      'unlistedExperience',
      'exclusiveExperiences',
      'enableTranslations',
      'enableRescheduleBookings',
      'enableWalletsPayment',
      'creditCard',
      'payUponArrival',
      'roomMemberCharge',
      'apiAccess',
      'integrations:google_analytics',
    ],
    hostsLimit: 25,
    promotionExclusiveTag: 'Harbor Exclusive',
    customStyle: '.hero h1 { letter-spacing: 0.02em; }',
    paymentPlatform: 'processor-eu',
    validateRoomCharge: true,
    validateMemberCharge: false,
    serviceVersion: 'V3',
    products: ['activate', 'host'],
    paymentMethods: { ...wallets, klarna: true },
    cancellationPolicies: [
      {
        key: 'flexible',
        name: 'Flexible',
        description: 'Full refund up to 24 hours before the start; no refund after that.',
        fullRefundHoursBefore: 24,
        lateRefundPercent: 0,
      },
      {
        key: 'day-trips',
        name: 'Day trips',
        description: 'Full refund up to 72 hours before the start; 50 % refund up to the start.',
        fullRefundHoursBefore: 72,
        lateRefundPercent: 50,
      },
    ],
    reschedulePolicy: {
      name: 'Standard',
      description: 'Move your booking up to 24 hours before the start, at most twice.',
      allowedHoursBefore: 24,
      maxReschedules: 2,
    },
    apiKey: { secret: 'sk_test_lisbon_demo', label: 'Brand key: Harbor Lisbon (EUR)' },
  },
  {
    key: 'tokyo',
    id: demoIds.brands.tokyo,
    organizationId: demoIds.organization,
    name: 'Harbor Tokyo',
    brandEmail: 'tokyo@harborcollection.example',
    countryCode: 'JP',
    currency: 'JPY',
    language: 'en',
    // Written in English with Japanese translations; Japanese for whoever asks for no locale.
    defaultLocale: 'ja',
    isLimited: false,
    look: {
      primaryColor: '#1F2A44',
      secondaryColor: '#F7F3EC',
      buttonColor: '#C0392B',
      primaryFont: 'Noto Serif JP',
      secondaryFont: 'Noto Sans JP',
      theme: 'light',
    },
    hero: {
      intro: 'Harbor Tokyo',
      heading: 'Old Tokyo, one neighbourhood at a time',
      description: 'Market breakfasts, tea in Asakusa and evenings on the Sumida, with hosts who speak your language.',
      imageAlt: 'Kaminarimon gate in Asakusa with its red lantern at dusk',
      videoAlt: 'Yakatabune boats on the Sumida River under fireworks',
    },
    featuresActive: [
      'reviews',
      'customQuestions',
      'priceTiers',
      'shoppingCart',
      'enableTranslations',
      'experienceListingType',
      'ticketScanning',
      'check-in',
      'creditCard',
      'apiAccess',
      'integrations:line_messaging',
    ],
    hostsLimit: 10,
    promotionExclusiveTag: 'Harbor Exclusive',
    customStyle: '',
    paymentPlatform: 'regional-processor',
    validateRoomCharge: true,
    validateMemberCharge: true,
    serviceVersion: 'V3',
    products: ['activate', 'reserve'],
    paymentMethods: { ...wallets, paypal: true },
    cancellationPolicies: [
      {
        key: 'standard',
        name: 'Standard',
        description: 'Full refund up to 48 hours before the start; 30 % refund up to 24 hours before.',
        fullRefundHoursBefore: 48,
        lateRefundPercent: 30,
      },
    ],
    reschedulePolicy: {
      name: 'One change',
      description: 'Move your booking once, up to 48 hours before the start.',
      allowedHoursBefore: 48,
      maxReschedules: 1,
    },
    apiKey: { secret: 'sk_test_tokyo_demo', label: 'Brand key: Harbor Tokyo (JPY)' },
  },
  {
    key: 'kayak',
    id: demoIds.brands.kayak,
    organizationId: null,
    name: 'Sunset Kayak Co',
    brandEmail: 'paddle@sunsetkayak.example',
    countryCode: 'US',
    currency: 'USD',
    language: 'en',
    defaultLocale: 'en',
    isLimited: true,
    look: {
      primaryColor: '#FF7F50',
      secondaryColor: '#003B5C',
      buttonColor: '#FFB400',
      primaryFont: 'Montserrat',
      secondaryFont: 'Open Sans',
      theme: 'dark',
    },
    hero: {
      intro: 'Sunset Kayak Co',
      heading: 'Paddle the sea caves of La Jolla',
      description: 'Guided kayak tours and rentals on the San Diego coast, from sunrise on Mission Bay to the seven caves.',
      imageAlt: 'Two kayaks at the mouth of a sea cave in La Jolla',
      videoAlt: 'Sea lions swimming beside a kayak off La Jolla Cove',
    },
    featuresActive: [
      'reviews',
      'customQuestions',
      'priceTiers',
      'shoppingCart',
      'payUponArrival',
      'enableBookingSurcharge',
      'creditCard',
      'apiAccess',
      'integrations:mailchimp',
    ],
    hostsLimit: 5,
    promotionExclusiveTag: 'Locals only',
    customStyle: 'body { --radius: 12px; }',
    paymentPlatform: 'processor-us',
    validateRoomCharge: false,
    validateMemberCharge: false,
    serviceVersion: 'V2',
    products: ['activate', 'reserve'],
    paymentMethods: { ...wallets, link: true },
    cancellationPolicies: [
      {
        key: 'weather',
        name: 'Weather guarantee',
        description: 'Full refund up to 24 hours before, and always when we cancel for wind or swell.',
        fullRefundHoursBefore: 24,
        lateRefundPercent: 0,
      },
    ],
    reschedulePolicy: {
      name: 'Easy reschedule',
      description: 'Move your booking up to 12 hours before the start, as often as you need.',
      allowedHoursBefore: 12,
      maxReschedules: 5,
    },
    apiKey: { secret: 'sk_test_kayak_demo', label: 'Brand key: Sunset Kayak Co (USD, no organization)' },
  },
];

export const organizationSpec = {
  id: demoIds.organization,
  name: 'Harbor Collection',
  apiKey: { secret: 'sk_test_harbor_org_demo', label: 'Organization key: Harbor Collection (Lisbon + Tokyo)' },
} as const;
