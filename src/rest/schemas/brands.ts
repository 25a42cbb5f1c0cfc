import { Type } from 'typebox';
import { brandSettingsIncludes } from '../../domain/catalog/brands.ts';
import { BrandParams, IfMatchHeaders, MediaObject, Nullable, errorResponses, ref } from './common.ts';

const BrandImage = Type.Object({ id: Type.String(), mimeType: Type.String(), uri: Type.Object({ original: Type.String() }) });

const CancellationPolicy = Type.Object({
  id: Type.String(),
  name: Type.String(),
  description: Type.String(),
  fullRefundHoursBefore: Nullable(Type.Integer()),
  lateRefundPercent: Type.Integer(),
});

const ReschedulePolicy = Type.Object({
  id: Type.String(),
  name: Type.String(),
  description: Type.String(),
  allowedHoursBefore: Type.Integer(),
  maxReschedules: Type.Integer(),
});

export const BrandSettings = Type.Object(
  {
    name: Type.String(),
    brandEmail: Type.String(),
    countryCode: Type.String(),
    isLimited: Type.Boolean(),
    designElement: Type.Object({
      logoId: Type.String(),
      logo: BrandImage,
      identityImageId: Type.String(),
      identityImage: BrandImage,
      primaryColor: Type.String(),
      secondaryColor: Type.String(),
      buttonColor: Type.String(),
      primaryFont: Type.String(),
      secondaryFont: Type.String(),
      theme: Type.String(),
    }),
    templateElement: Type.Object({
      hero: Type.Object({
        intro: Type.String(),
        heading: Type.String(),
        description: Type.String(),
        mobileImageId: Type.String(),
        desktopImageId: Type.String(),
        mobileImage: BrandImage,
        desktopImage: BrandImage,
        desktopMedia: MediaObject,
        mobileMedia: MediaObject,
      }),
    }),
    features: Type.Object({ active: Type.Array(Type.String()), updatedAt: Type.String(), hostsLimit: Type.Integer() }),
    promotion: Type.Object({ exclusiveTag: Type.String() }),
    customStyle: Type.String(),
    paymentPlatform: Type.Union([Type.Literal('processor-us'), Type.Literal('processor-eu'), Type.Literal('regional-processor')]),
    shouldValidateComplimentaryBooking: Type.Object({ roomCharge: Type.Boolean(), memberCharge: Type.Boolean() }),
    currency: Type.String(),
    serviceVersion: Type.Union([Type.Literal('V1'), Type.Literal('V2'), Type.Literal('V3')]),
    products: Type.Array(Type.Union([Type.Literal('activate'), Type.Literal('host'), Type.Literal('reserve')])),
    paymentMethods: Type.Object({
      applePay: Type.Boolean(),
      googlePay: Type.Boolean(),
      paypal: Type.Boolean(),
      klarna: Type.Boolean(),
      link: Type.Boolean(),
    }),
    cancellationPolicyId: Nullable(Type.String()),
    reschedulePolicyId: Nullable(Type.String()),
    cancellationPolicy: Type.Optional(Nullable(CancellationPolicy)),
    reschedulePolicy: Type.Optional(Nullable(ReschedulePolicy)),
  },
  { $id: 'BrandSettings', description: "A brand's public configuration" },
);

export const getBrandSettingsSchema = {
  tags: ['Brand Configuration'],
  operationId: 'getBrandSettings',
  summary: 'Get brand settings',
  params: BrandParams,
  querystring: Type.Object({
    include: Type.Optional(
      Type.String({
        pattern: `^(${brandSettingsIncludes.join('|')})(,(${brandSettingsIncludes.join('|')}))*$`,
        maxLength: 200,
        description: `Comma-separated related resources to embed: ${brandSettingsIncludes.join(', ')}`,
      }),
    ),
  }),
  response: { 200: Type.Object({ data: ref(BrandSettings) }, { description: "The brand's settings" }), ...errorResponses(404) },
};

export const updateBrandSettingsSchema = {
  tags: ['Brand Configuration'],
  operationId: 'updateBrandSettings',
  summary: 'Change brand settings',
  description:
    'A JSON merge patch (RFC 7396, `application/merge-patch+json` or `application/json`) of the settings as GET shows them. ' +
    'Read-only fields (`features`, `currency`, `paymentPlatform`, `serviceVersion`, `isLimited`, images and their ids, embedded ' +
    "policies) are ignored when unchanged and refused (400 naming the field) when changed. Policy ids must be the brand's own. " +
    'Records `brand.updated` when something changed.',
  params: BrandParams,
  headers: IfMatchHeaders,
  body: Type.Object({}, { additionalProperties: true, description: 'The fields to change' }),
  response: {
    200: Type.Object({ data: ref(BrandSettings) }, { description: "The brand's settings; their version is in the `ETag` header" }),
    ...errorResponses(400, 404, 412),
  },
};
