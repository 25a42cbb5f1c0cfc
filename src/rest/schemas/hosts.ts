import { Type } from 'typebox';
import { BrandParams, IfMatchHeaders, ImageRef, Uuid, errorResponses, ref } from './common.ts';

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

const HostParams = Type.Object({ brandId: Uuid, hostId: Uuid });

const HostDocument = Type.Object(
  {},
  {
    additionalProperties: true,
    description:
      'A host as GET shows it, less `id`: `firstName` and `lastName` (1 to 100 characters), `emailAddress`, `description` ' +
      '(at most 5000 characters), `allowOverlappingBookings` (default false), `profilePicture` `{ uri: { original: https URL, ... }, altText }` ' +
      "(its `id` is the server's). In a PATCH, a JSON merge patch (RFC 7396) of it",
  },
);

const hostAnswer = (description: string) => Type.Object({ data: ref(Host) }, { description });

export const getHostSchema = {
  tags: ['Experiences'],
  operationId: 'getHost',
  summary: 'Get a host of a brand',
  description: 'A secret key also gets the `ETag` of the host (what `If-Match` takes).',
  params: HostParams,
  response: { 200: hostAnswer('The host; its version is in the `ETag` header (secret keys)'), ...errorResponses(404) },
};

export const createHostSchema = {
  tags: ['Experiences'],
  operationId: 'createHost',
  summary: 'Create a host',
  description: 'Secret keys only. Records `host.created`.',
  params: BrandParams,
  body: HostDocument,
  response: { 201: hostAnswer('The host as GET shows it; `ETag` its version, `Location` its URL'), ...errorResponses(400, 404) },
};

export const updateHostSchema = {
  tags: ['Experiences'],
  operationId: 'updateHost',
  summary: 'Change a host (JSON merge patch)',
  description: 'Secret keys only. Records `host.updated` when something changed.',
  params: HostParams,
  headers: IfMatchHeaders,
  body: HostDocument,
  response: { 200: hostAnswer('The host after the change; `ETag` its new version'), ...errorResponses(400, 404, 412) },
};
