import { Type } from 'typebox';
import { BrandParams, IfMatchHeaders, MoneyInput, Nullable, Uuid, errorResponses, ref } from './common.ts';
import { Listing } from './listings.ts';

const tags = ['Listings'];

const ListingParams = Type.Object({ brandId: Uuid, listingId: Uuid });

const Reference = (what: string) =>
  Nullable(
    Type.Object({ id: Type.String({ description: `The ${what}'s id (its other fields are ignored)` }) }, { additionalProperties: true }),
  );

/**
 * A listing as the API shows it, every field optional: the server checks each (400 VALIDATION_FAILED
 * naming it), so both faces refuse alike. Read-only fields (`id`, `rating`, `medias`, `experienceId` once
 * created) are ignored when sent back unchanged.
 */
const listingBodyProperties = {
  experienceId: Type.Optional(Type.String({ description: "One of the brand's experiences (required to create; read-only afterwards)" })),
  kind: Type.Optional(Type.String({ description: 'experience (default), resource, event or auction' })),
  productLine: Type.Optional(Type.String({ description: "activate, host or reserve (default: the brand's first product line)" })),
  title: Type.Optional(Type.String({ description: 'Draft content (required to create)' })),
  summary: Type.Optional(Type.String({ description: 'Draft content' })),
  slug: Type.Optional(Nullable(Type.String({ description: 'Draft content: lower-case words joined by hyphens' }))),
  advertisedPrice: Type.Optional(MoneyInput('Draft content (required to create)')),
  startingPrice: Type.Optional(MoneyInput('Draft content (required to create)')),
  hidePrice: Type.Optional(Type.Boolean({ description: 'Draft content' })),
  pricePerType: Type.Optional(Type.String({ description: 'Draft content, e.g. `per person`' })),
  maxParticipants: Type.Optional(Type.Integer({ description: "Draft content (default: the experience's)" })),
  order: Type.Optional(Type.Integer({ description: 'Position in dashboard order (default: after the last)' })),
  isExclusive: Type.Optional(Type.Boolean()),
  isUnlisted: Type.Optional(Type.Boolean({ description: 'Applies at once' })),
  isFeatured: Type.Optional(Type.Boolean({ description: 'Applies at once; only featured listings are in `GET /v3/listings/featured`' })),
  resourceGroupCollectionId: Type.Optional(Type.String({ description: 'A UUID (default: a new one)' })),
  bookingAvailabilityMode: Type.Optional(Nullable(Type.String({ description: 'private, group or non-restricted' }))),
  category: Type.Optional(Reference("brand's category (null: the experience's)")),
  hostedBy: Type.Optional(Reference("brand's host (null: the experience's)")),
  pointsEligible: Type.Optional(Nullable(Type.Boolean())),
  eventDates: Type.Optional(Nullable(Type.Object({ startDate: Type.String(), endDate: Type.String() }))),
  vibes: Type.Optional(Type.Array(Type.Object({ id: Type.String() }, { additionalProperties: true }), { description: 'Replaced whole' })),
};

const ListingBody = Type.Object(listingBodyProperties, { additionalProperties: true });

const answer = (description: string) =>
  Type.Object(
    { data: ref(Listing) },
    { description: `${description}; its version is in the \`ETag\` header (send it back in \`If-Match\`)` },
  );

export const getListingSchema = {
  tags,
  operationId: 'getListing',
  summary: 'Get one listing',
  description: "One of the brand's listings, featured or not, with its `ETag`. `version=latest` (secret keys) shows its draft.",
  params: ListingParams,
  querystring: Type.Object({ version: Type.Optional(Type.Enum(['latest', 'published'], { default: 'published' })) }),
  response: { 200: answer('The listing'), ...errorResponses(404) },
};

export const createListingSchema = {
  tags,
  operationId: 'createListing',
  summary: 'Create a listing (as a draft)',
  description:
    "The body is a listing as `GET /v3/listings/featured` shows it, less its `id`, naming one of the brand's experiences. " +
    'Its content is a draft: published reads leave it out until it is published. Records `listing.created`.',
  params: BrandParams,
  body: ListingBody,
  response: { 201: answer('The listing as `version=latest` shows it'), ...errorResponses(404) },
};

export const updateListingDraftSchema = {
  tags,
  operationId: 'updateListingDraft',
  summary: "Edit a listing's draft",
  description:
    'A JSON merge patch (RFC 7396, `application/merge-patch+json` or `application/json`) of the listing as `version=latest` shows it: ' +
    'null removes a field, arrays (`vibes`) are replaced whole. Content fields go to the draft; `isUnlisted`, `isFeatured`, `order` and ' +
    'the other listing fields apply at once. Records `listing.updated` when something changed.',
  params: ListingParams,
  headers: IfMatchHeaders,
  body: Type.Object({}, { additionalProperties: true, description: 'The fields to change' }),
  response: { 200: answer('The listing as `version=latest` shows it'), ...errorResponses(404, 412) },
};

export const publishListingSchema = {
  tags,
  operationId: 'publishListing',
  summary: "Publish a listing's draft",
  description:
    'The draft becomes the published content in one unit of work (readers see the old or the new, never neither). ' +
    'Without a draft nothing changes. Records `listing.published`.',
  params: ListingParams,
  headers: IfMatchHeaders,
  response: { 200: answer('The listing as guests now see it'), ...errorResponses(400, 404, 412) },
};
