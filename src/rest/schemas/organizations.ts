import { Type } from 'typebox';
import { Uuid, errorResponses, ref } from './common.ts';

export const Organization = Type.Object(
  {
    id: Uuid,
    name: Type.String(),
    brands: Type.Array(Type.Object({ id: Uuid, name: Type.String(), currency: Type.String({ description: 'ISO 4217 code' }) })),
  },
  { $id: 'Organization', description: 'An organization and the brands it holds' },
);

export const getOrganizationSchema = {
  tags: ['Organizations'],
  operationId: 'getOrganization',
  summary: 'Get an organization',
  description:
    'The organization of the calling organization key, with its brands (by name): what a brand picker needs. A brand ' +
    'key is 403 FORBIDDEN; any other organization is 404 NOT_FOUND (its existence is never confirmed).',
  params: Type.Object({ organizationId: Uuid }),
  response: {
    200: Type.Object({ data: ref(Organization) }, { description: 'The organization' }),
    ...errorResponses(404),
  },
};
