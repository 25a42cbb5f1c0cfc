import { readdirSync, readFileSync } from 'node:fs';
import type { CodegenConfig } from '@graphql-codegen/cli';
import { enumValues } from './src/graphql/enums.ts';

const sdl = readdirSync('schema').map((f) => readFileSync(`schema/${f}`, 'utf8')).join('\n');
/** Only the enums the SDL defines (codegen refuses mappings for others). */
const definedEnumValues = Object.fromEntries(
  Object.entries(enumValues).filter(([name]) => new RegExp(`^enum ${name}\\b`, 'm').test(sdl)),
);

/**
 * Resolver types from the SDL in schema/. `mappers` make each resolver's parent the domain's own
 * object, so the compiler checks that every field the SDL promises is produced.
 */
const config: CodegenConfig = {
  schema: 'schema/*.graphql',
  generates: {
    'src/graphql/__generated__/resolvers-types.ts': {
      plugins: ['typescript', 'typescript-resolvers'],
      config: {
        useTypeImports: true,
        enumsAsTypes: true,
        contextType: '../context.ts#GraphQLContext',
        strictScalars: true,
        scalars: {
          UUID: 'string',
          DateTime: 'string',
          LocalDate: 'string',
          Locale: 'string',
          URL: 'string',
          JSON: 'unknown',
          JSONObject: 'Record<string, unknown>',
        },
        enumValues: definedEnumValues,
        mapperTypeSuffix: 'Model',
        mappers: {
          BrandSettings: '../../domain/brands.ts#BrandSettings',
          Booking: '../../domain/booking-view.ts#Booking',
          BookingConnection: '../../domain/bookings.ts#BookingConnection',
          Cart: '../../domain/carts.ts#Cart',
          Event: '../../domain/events.ts#EventEnvelope',
          EventConnection: '../../domain/events-feed.ts#EventConnection',
          CustomQuestion: '../../domain/questions.ts#QuestionSnapshot',
          Experience: '../../domain/experiences.ts#Experience',
          Host: '../../domain/hosts.ts#Host',
          Listing: '../../domain/listings.ts#Listing',
          PaymentIntentPayload: '../../domain/checkout.ts#PaymentIntentResult',
          Person: '../../domain/reviews.ts#Person',
          Review: '../../domain/reviews.ts#Review',
          ReviewConnection: '../../domain/reviews.ts#ReviewConnection',
          Session: '../../domain/sessions.ts#Session',
          Waitlist: '../../domain/waitlists.ts#Waitlist',
          WaitlistEntry: '../../domain/waitlist-view.ts#WaitlistEntry',
          WebhookEndpoint: '../../domain/webhook-endpoints.ts#WebhookEndpoint',
          CreateWebhookEndpointPayload: '../../domain/webhook-endpoints.ts#CreatedWebhookEndpoint',
          WebhookDelivery: '../../domain/webhook-deliveries.ts#WebhookDelivery',
          WebhookDeliveryConnection: '../../domain/webhook-deliveries.ts#WebhookDeliveryConnection',
        },
      },
    },
  },
};

export default config;
