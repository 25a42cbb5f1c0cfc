import { Type } from 'typebox';
import { BrandParams, errorResponses } from './common.ts';

const tags = ['Catalogue'];

/** The catalogue document (its JSON Schema: `GET /v1/catalog.schema.json`); the domain checks each object, naming its path. */
export const CatalogDocument = Type.Object(
  {},
  {
    additionalProperties: true,
    description:
      "A brand's whole catalogue: `brand` (its settings as GET /v1/brands/{brandId}/settings shows them), `experiences` " +
      '(`{ id, ...the experience document }`), `listings` (`{ id, published, ...the listing as version=latest shows it }`) and ' +
      '`sessions` (future one-off sessions `{ id, experienceId, startDateTime, capacity, duration }`). What GET answers, PUT takes back.',
  },
);

const Change = Type.Object({
  type: Type.Enum(['brand', 'experience', 'listing', 'session']),
  id: Type.String(),
  path: Type.String({ description: 'Where the object is in the document, e.g. `experiences.2`' }),
  change: Type.Enum(['created', 'updated', 'unchanged']),
});

const ImportResult = Type.Object(
  {
    data: Type.Object({
      dryRun: Type.Boolean({ description: 'True: nothing was written, `changes` says what the import would do' }),
      summary: Type.Object({ created: Type.Integer(), updated: Type.Integer(), unchanged: Type.Integer() }),
      changes: Type.Array(Change),
    }),
  },
  { description: 'What the import did (or, with dryRun, would do) to each object of the document' },
);

export const exportCatalogSchema = {
  tags,
  operationId: 'exportCatalog',
  summary: "Export the brand's whole catalogue",
  description:
    'One JSON document with the brand settings, every experience (archived ones too), listing (its latest content) and future ' +
    'session not cancelled. `PUT` the same document to import it. Secret keys only.',
  params: BrandParams,
  response: { 200: CatalogDocument, ...errorResponses(404) },
};

export const importCatalogSchema = {
  tags,
  operationId: 'importCatalog',
  summary: 'Import a whole catalogue (idempotent, all or nothing)',
  description:
    'Creates or updates each object of the document by its id, in one unit of work: an error anywhere (named by its path, ' +
    'e.g. `experiences.3.hostedBy.id`) writes nothing. Objects left out of the document are left alone (no session is cancelled). ' +
    'Each change records the event its single write records; an unchanged object records none. `dryRun=true` answers what would ' +
    'change and writes nothing. Secret keys only.',
  params: BrandParams,
  querystring: Type.Object({ dryRun: Type.Optional(Type.Boolean({ default: false })) }),
  body: CatalogDocument,
  response: { 200: ImportResult, ...errorResponses(400, 404, 409, 412, 413, 422) },
};
