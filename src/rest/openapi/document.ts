/**
 * The options of @fastify/swagger that make /openapi.json: the document's frame (servers, tags, security
 * schemes), component names taken from the schemas' `$id`, each REST operation completed with what all
 * operations share (operation.ts), and an example on every body (examples.ts). Routes without a schema
 * (GraphQL's) are left out: /graphql is documented by its own schema.
 */
import type { FastifyDynamicSwaggerOptions } from '@fastify/swagger';
import { addExamples } from './examples.ts';
import { documentedOperation, type RouteSchema } from './operation.ts';

const tags = [
  { name: 'Organizations', description: 'The organization of an organization key and its brands' },
  { name: 'Brand Configuration', description: "A brand's public settings and policies" },
  { name: 'Listings', description: 'What a brand features, in dashboard order' },
  { name: 'Experiences', description: 'Experiences, their custom questions, reviews and hosts' },
  { name: 'Availability', description: 'Sessions and the places left on them' },
  { name: 'Carts & Checkout', description: 'Quotes, payment intents and carts' },
  { name: 'Bookings', description: 'Reading, rescheduling and cancelling bookings, with refunds' },
  { name: 'Waitlists', description: 'Queues for sold-out sessions' },
  { name: 'Integrations', description: 'Events, webhook endpoints and the payment processor' },
];

export const openapiOptions: FastifyDynamicSwaggerOptions = {
  openapi: {
    openapi: '3.1.0',
    info: {
      title: 'Tessera Partner Booking Service API',
      version: '1.0',
      description: 'REST face of the Tessera gateway. GraphQL lives at /graphql.',
      license: { name: 'Proprietary', identifier: 'LicenseRef-Proprietary' },
    },
    servers: [{ url: '/', description: 'The gateway serving this document' }],
    tags,
    components: {
      securitySchemes: {
        'Brand-API-Key': { type: 'http', scheme: 'bearer', description: 'A brand secret key' },
        'Organization-API-Key': { type: 'http', scheme: 'bearer', description: 'An organization secret key' },
        'Publishable-Key': {
          type: 'http',
          scheme: 'bearer',
          description:
            'A brand publishable key (pk_...) for browser pages on the origins it lists: only the operations that name it (catalogue, availability, checkout, waitlists)',
        },
      },
    },
    security: [{ 'Brand-API-Key': [] }, { 'Organization-API-Key': [] }],
  },
  refResolver: { buildLocalReference: (json, _baseUri, _fragment, i) => (typeof json.$id === 'string' ? json.$id : `def-${i}`) },
  transform: ({ schema, url, route }) => {
    if (!schema) return { schema: { hide: true }, url };
    const method = Array.isArray(route.method) ? String(route.method[0]) : route.method;
    const publishable = route.config?.publishable !== undefined;
    // The uses that hold places or a waitlist entry: where a brand may ask for a human check.
    const humanCheck = route.config?.publishable === 'checkout' || route.config?.publishable === 'waitlist';
    return {
      schema: documentedOperation(schema as RouteSchema, url, method, publishable, humanCheck && method === 'POST') as typeof schema,
      url,
    };
  },
  transformObject: (documentObject) =>
    addExamples('openapiObject' in documentObject ? documentObject.openapiObject : documentObject.swaggerObject),
};
