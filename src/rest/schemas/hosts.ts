import { Type } from 'typebox';
import { BrandParams, ImageRef, errorResponses, ref } from './common.ts';

/** The spec's `hostedBy` shape. */
export const Host = Type.Object(
  {
    id: Type.String(),
    profilePicture: ImageRef,
    firstName: Type.String(),
    lastName: Type.String(),
    emailAddress: Type.Optional(
      Type.String({ description: 'Absent for a publishable key (public, in a web page): it sees hosts by name, picture and description' }),
    ),
    description: Type.String(),
    allowOverlappingBookings: Type.Boolean(),
  },
  { $id: 'Host', description: 'Who leads sessions' },
);

export const listHostsSchema = {
  tags: ['Experiences'],
  operationId: 'listHosts',
  summary: 'List the hosts of a brand',
  params: BrandParams,
  response: { 200: Type.Object({ data: Type.Array(ref(Host)) }, { description: "The brand's hosts" }), ...errorResponses(404) },
};
