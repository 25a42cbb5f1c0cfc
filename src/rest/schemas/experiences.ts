import { Type } from 'typebox';
import { MAX_LOCALE_LENGTH } from '../../domain/shared/locale.ts';
import { IfMatchHeaders, ImageRef, Uuid, errorResponses, ref } from './common.ts';
import { Host } from './hosts.ts';
import { QuestionSnapshot } from './questions.ts';

const Named = Type.Object({ id: Type.String(), name: Type.String() });

/** The spec's Experience resource; the optional fields are omitted when they have no value. */
export const Experience = Type.Object(
  {
    id: Type.String(),
    title: Type.String(),
    slug: Type.String(),
    headline: Type.String(),
    description: Type.String(),
    vibes: Type.Array(Named),
    category: Named,
    location: Type.Object({
      longitude: Type.Number(),
      latitude: Type.Number(),
      name: Type.String(),
      timezoneId: Type.String({ description: 'IANA zone; session times are local to it' }),
      additionalInfo: Type.String(),
    }),
    maxParticipantsCount: Type.Integer(),
    sessionDurationMinutes: Type.Integer(),
    currency: Type.String({ description: 'ISO 4217 code of the brand' }),
    coverPicture: ImageRef,
    pictures: Type.Array(ImageRef),
    medias: Type.Array(ImageRef, { description: 'The cover picture, then the pictures' }),
    bookingAvailabilityMode: Type.Enum(['private', 'group', 'non-restricted']),
    providedItems: Type.Array(Type.String()),
    healthAndSafety: Type.String(),
    isExclusive: Type.Boolean(),
    isBookable: Type.Boolean(),
    isUnlisted: Type.Boolean(),
    type: Type.String(),
    hostedBy: ref(Host),
    paymentMethods: Type.Array(Type.String(), {
      description: 'The methods a checkout of this experience accepts now (listed for it, taken by Tessera, enabled by the brand)',
    }),
    priceTiers: Type.Array(Type.Object({ name: Type.String(), price: Type.Number({ description: 'In the brand currency' }) })),
    taxes: Type.Array(Type.Object({ name: Type.String(), amount: Type.Number({ description: 'Tax rate in percent, e.g. 23 or 6.5' }) })),
    integrationMeta: Type.Array(
      Type.Object({ type: Type.String(), key: Type.String(), value: Type.Object({}, { additionalProperties: true }) }),
    ),
    ratings: Type.Optional(
      Type.Object({
        rating: Type.Number({ description: 'Average, one decimal' }),
        recommendability: Type.Number({ description: 'Average, one decimal' }),
        total: Type.Integer({ description: 'Number of reviews' }),
      }),
    ),
    externalField: Type.Optional(Type.Object({ type: Type.String(), value: Type.String() })),
    minimumRequiredToBook: Type.Optional(Type.Integer()),
    maximumAllowedToBook: Type.Optional(Type.Integer()),
    displayedCapacity: Type.Optional(Type.Integer()),
    cancellationPolicyId: Type.Optional(Type.String()),
    addOns: Type.Optional(
      Type.Array(
        Type.Object({
          id: Type.String({ description: 'What checkout takes as `listingAddOns[].addOnId`' }),
          name: Type.String(),
          price: Type.Number({ description: 'Unit price in the brand currency' }),
        }),
        { description: 'Extras sold with the experience, in order; written back whole by PATCH' },
      ),
    ),
    customQuestions: Type.Optional(
      Type.Array(ref(QuestionSnapshot), {
        description:
          'The active custom questions asked at checkout, in display order (as GET .../custom-questions answers them); written back whole by PATCH',
      }),
    ),
    status: Type.Enum(['active', 'archived'], {
      description: '`archived`: no new sales (checkouts and holds answer EXPERIENCE_ARCHIVED); bookings already made stand',
    }),
  },
  { $id: 'Experience', description: "The spec's Experience resource" },
);

const ExperienceParams = Type.Object({ brandId: Uuid, experienceId: Uuid });

export const getExperienceSchema = {
  tags: ['Experiences'],
  operationId: 'getExperience',
  summary: 'Get experience',
  params: ExperienceParams,
  querystring: Type.Object({
    language: Type.Optional(
      Type.String({
        pattern: '^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*$',
        maxLength: MAX_LOCALE_LENGTH,
        description:
          "BCP 47 tag for translated text (e.g. `pt` or `pt-PT`); the brand's default locale when absent. Untranslated text stays in the language the brand writes its content in; `Content-Language` names the answer's",
      }),
    ),
  }),
  response: { 200: ref(Experience, 'The experience'), ...errorResponses(404) },
};

export const listCustomQuestionsSchema = {
  tags: ['Experiences'],
  operationId: 'listCustomQuestions',
  summary: 'List the active custom questions of an experience',
  params: ExperienceParams,
  response: {
    200: Type.Object({ data: Type.Array(ref(QuestionSnapshot)) }, { description: 'The active questions, in order' }),
    ...errorResponses(404),
  },
};

/**
 * The experience a client writes: what GET answers, less `id`; the domain reads it and names the field of
 * each mistake (src/domain/catalog/experience-document.ts), for REST and GraphQL alike.
 */
export const ExperienceDocument = Type.Object(
  {},
  {
    additionalProperties: true,
    description:
      'The Experience as GET answers it, less `id`, plus `translations` (locale -> { title, headline, description, healthAndSafety }). ' +
      "`category` and each of `vibes` is `{ id }` of the brand, or `{ name }` (the brand's of that name, else a new one); `hostedBy` is `{ id }` " +
      "of a host of the brand; `coverPicture` and each of `pictures` is `{ id }` of the brand's media or `{ uri: { original: URL } }`, with an " +
      'optional `altText`. Prices are decimals in the brand currency, tax `amount`s percentages. Ignored: `currency`, `medias`, `ratings`, `status`. ' +
      'In a PATCH, a JSON merge patch (RFC 7396) of it: arrays are replaced whole, `null` removes',
  },
);

export const createExperienceSchema = {
  tags: ['Experiences'],
  operationId: 'createExperience',
  summary: 'Create an experience',
  params: Type.Object({ brandId: Uuid }),
  body: ExperienceDocument,
  response: {
    201: ref(Experience, 'The experience as GET shows it; `ETag` its version, `Location` its URL'),
    ...errorResponses(400, 404, 422),
  },
};

export const updateExperienceSchema = {
  tags: ['Experiences'],
  operationId: 'updateExperience',
  summary: 'Change an experience (JSON merge patch)',
  params: ExperienceParams,
  headers: IfMatchHeaders,
  body: ExperienceDocument,
  response: { 200: ref(Experience, 'The experience after the change; `ETag` its new version'), ...errorResponses(400, 404, 412, 422) },
};

export const archiveExperienceSchema = {
  tags: ['Experiences'],
  operationId: 'archiveExperience',
  summary: 'Archive an experience (no new sales)',
  params: ExperienceParams,
  headers: IfMatchHeaders,
  response: { 200: ref(Experience, 'The archived experience; `ETag` its version'), ...errorResponses(400, 404, 412) },
};

export const unarchiveExperienceSchema = {
  tags: ['Experiences'],
  operationId: 'unarchiveExperience',
  summary: 'Sell an archived experience again',
  description:
    'Checkouts, holds and waitlist joins take the experience again; recorded as `experience.updated`. Un-archiving an experience that is not archived changes nothing.',
  params: ExperienceParams,
  headers: IfMatchHeaders,
  response: { 200: ref(Experience, 'The experience, sold again; `ETag` its version'), ...errorResponses(400, 404, 412) },
};
