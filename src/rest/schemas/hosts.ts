import { Type } from 'typebox';
import { BrandParams, ImageRef, errorResponses } from './common.ts';

/** The spec's `hostedBy` shape. */
export const Host = Type.Object({
  id: Type.String(),
  profilePicture: ImageRef,
  firstName: Type.String(),
  lastName: Type.String(),
  emailAddress: Type.String(),
  description: Type.String(),
  allowOverlappingBookings: Type.Boolean(),
});

export const listHostsSchema = {
  tags: ['Experiences'],
  summary: 'List the hosts of a brand',
  params: BrandParams,
  response: { 200: Type.Object({ data: Type.Array(Host) }), ...errorResponses(403, 404) },
};
