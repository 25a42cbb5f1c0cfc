import { Type } from 'typebox';
import { MAX_LOCALE_LENGTH } from '../../domain/shared/locale.ts';
import { MediaObject, Nullable, Uuid, ref } from './common.ts';
import { Host } from './hosts.ts';

const IdName = (description: string) => Type.Object({ id: Type.String(), name: Type.String() }, { description });

/** The spec's Listing; nested shapes the spec leaves open are documented here. */
export const Listing = Type.Object(
  {
    id: Uuid,
    kind: Type.Enum(['experience', 'resource', 'event', 'auction']),
    productLine: Type.Enum(['activate', 'host', 'reserve']),
    title: Type.String(),
    summary: Type.String(),
    slug: Nullable(Type.String()),
    advertisedPrice: Type.Number({ description: 'In the brand currency' }),
    startingPrice: Type.Number({ description: 'In the brand currency' }),
    hidePrice: Type.Boolean(),
    pricePerType: Type.String({ description: 'Free-form label' }),
    maxParticipants: Type.Integer(),
    order: Type.Integer({ description: 'Position in the order configured in the dashboard' }),
    isExclusive: Type.Boolean(),
    isUnlisted: Type.Boolean(),
    isFeatured: Type.Boolean({ description: 'Whether it is among the featured listings (always true in `GET /v3/listings/featured`)' }),
    experienceId: Nullable(Uuid),
    resourceGroupCollectionId: Uuid,
    medias: Type.Array(MediaObject),
    bookingAvailabilityMode: Nullable(Type.Enum(['private', 'group', 'non-restricted'])),
    category: Nullable(IdName("The listing's category, else its experience's")),
    eventDates: Nullable(
      Type.Object(
        { startDate: Type.String({ format: 'date' }), endDate: Type.String({ format: 'date' }) },
        { description: 'First and last local date of an event listing' },
      ),
    ),
    hostedBy: Nullable(ref(Host)),
    pointsEligible: Nullable(Type.Boolean()),
    rating: Nullable(
      Type.Object(
        { rating: Type.Number({ description: 'Average, one decimal' }), total: Type.Integer({ description: 'Number of reviews' }) },
        { description: "Reviews of the listing's experience; null without experience or reviews" },
      ),
    ),
    vibes: Type.Array(IdName('A mood tag')),
  },
  { $id: 'Listing', description: "The spec's Listing" },
);

export const getFeaturedListingsSchema = {
  tags: ['Listings'],
  operationId: 'getFeaturedListings',
  summary: 'Get featured listings',
  description:
    "The acting brand's featured listings in dashboard order. A brand key acts for its brand; an organization key names the brand with the Tessera-Brand-Id header.",
  querystring: Type.Object({
    unlisted: Type.Optional(Type.Boolean({ default: false, description: 'True: the unlisted listings instead of the listed ones' })),
    locale: Type.Optional(
      Type.String({
        pattern: '^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*$',
        maxLength: MAX_LOCALE_LENGTH,
        description:
          "BCP 47 tag for title and summary; the brand's default locale when absent. Untranslated text stays in the language the brand writes its content in; `Content-Language` names the languages of the answer",
      }),
    ),
    version: Type.Optional(
      Type.Enum(['latest', 'published'], {
        default: 'published',
        description: '`latest` shows drafts where they exist (secret keys only: 403 FORBIDDEN naming `version` for a publishable key)',
      }),
    ),
  }),
  response: { 200: Type.Object({ data: Type.Array(ref(Listing)) }, { description: 'The featured listings, in dashboard order' }) },
};
