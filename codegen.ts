import { readdirSync, readFileSync } from 'node:fs';
import type { CodegenConfig } from '@graphql-codegen/cli';
import { enumValues } from './src/graphql/enums.ts';
import { graphqlClientTarget } from './examples/clients/graphql/codegen.ts';
import { apolloClientTarget } from './examples/clients/apollo/codegen.ts';
import { urqlClientTarget } from './examples/clients/urql/codegen.ts';
import { scalars } from './examples/clients/scalars.ts';

const sdl = readdirSync('schema')
  .map((f) => readFileSync(`schema/${f}`, 'utf8'))
  .join('\n');
/** Only the enums the SDL defines (codegen refuses mappings for others). */
const definedEnumValues = Object.fromEntries(Object.entries(enumValues).filter(([name]) => new RegExp(`^enum ${name}\\b`, 'm').test(sdl)));

/**
 * Resolver types from the SDL in schema/, and the example clients' typed documents (so `tsc` fails when a
 * schema change breaks one of them). `mappers` make each resolver's parent the domain's own
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
        // Entities (`@key`, schema/federation.graphql) get a typed `__resolveReference`.
        federation: true,
        contextType: '../context.ts#GraphQLContext',
        strictScalars: true,
        // The same map clients are told to use (docs/graphql.md): resolvers answer the wire types.
        scalars,
        enumValues: definedEnumValues,
        mapperTypeSuffix: 'Model',
        mappers: {
          BrandSettings: '../../domain/catalog/brands.ts#BrandSettings',
          BrandSummary: '../../domain/access/store.ts#BrandSummaryRow',
          CancellationPolicy: '../../domain/catalog/brands.ts#CancellationPolicy',
          ReschedulePolicy: '../../domain/catalog/brands.ts#ReschedulePolicy',
          Organization: '../../domain/access/organizations.ts#Organization',
          Viewer: '../../domain/access/organizations.ts#Viewer',
          Booking: '../../domain/bookings/booking-view.ts#Booking',
          RescheduleBookingPayload: '../../domain/bookings/reschedule.ts#RescheduleResult',
          BookingConnection: '../../domain/bookings/bookings.ts#BookingConnection',
          Cart: '../../domain/bookings/carts.ts#Cart',
          Event: '../../domain/outbox/outbox.ts#EventEnvelope',
          EventConnection: '../../domain/outbox/feed.ts#EventConnection',
          CustomQuestion: '../../domain/questions/questions.ts#QuestionSnapshot',
          Experience: '../../domain/catalog/experiences.ts#Experience',
          Host: '../../domain/catalog/hosts.ts#Host',
          Coupon: '../../domain/catalog/coupon-writes.ts#Coupon',
          CreditCode: '../../domain/catalog/credit-code-writes.ts#CreditCode',
          Listing: '../../domain/catalog/listings.ts#Listing',
          CreatePaymentIntentPayload: '../../domain/checkout/checkout.ts#PaymentIntentResult',
          Person: '../../domain/catalog/reviews.ts#Person',
          Review: '../../domain/catalog/reviews.ts#Review',
          ReviewConnection: '../../domain/catalog/reviews.ts#ReviewConnection',
          Session: '../../domain/availability/sessions.ts#Session',
          Waitlist: '../../domain/waitlists/waitlists.ts#Waitlist',
          WaitlistEntry: '../../domain/waitlists/entry-view.ts#WaitlistEntry',
          WebhookEndpoint: '../../domain/webhooks/endpoints.ts#WebhookEndpoint',
          CreateWebhookEndpointPayload: '../../domain/webhooks/endpoints.ts#CreatedWebhookEndpoint',
          WebhookDelivery: '../../domain/webhooks/deliveries.ts#WebhookDelivery',
          WebhookDeliveryConnection: '../../domain/webhooks/deliveries.ts#WebhookDeliveryConnection',
        },
      },
    },
    ...graphqlClientTarget,
    ...apolloClientTarget,
    ...urqlClientTarget,
  },
};

export default config;
