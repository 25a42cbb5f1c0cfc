/**
 * The catalogue document's JSON Schema, from one source of truth: this zod schema, turned into JSON
 * Schema (draft 2020-12) by zod's own `toJSONSchema`. The committed copy, docs/catalog.schema.json, is
 * written by `npm run catalog -- schema` (a test checks it is current). It states the document's shape;
 * the import checks every field itself (catalog-document.ts), naming its path, as the single writes do.
 */
import { z } from 'zod';

const id = z.guid().describe("The object's id: a brand's own; a new id creates, a known one updates");
const open = <T extends z.ZodRawShape>(shape: T, description: string) => z.looseObject(shape).describe(description);

export const catalogDocumentSchema = z
  .object({
    $schema: z.string().optional(),
    brandId: z.guid().optional().describe('The brand exported (ignored by an import: the URL names the brand)'),
    exportedAt: z.string().optional().describe('When it was exported (ignored by an import)'),
    brand: open(
      { name: z.string().optional(), currency: z.string().optional() },
      'The brand settings as GET /v1/brands/{brandId}/settings shows them, applied as that PATCH is (read-only fields must be unchanged)',
    ).optional(),
    experiences: z
      .array(
        open(
          {
            id,
            title: z.string(),
            slug: z.string(),
            hostedBy: z.object({ id: z.string() }).describe("One of the brand's hosts"),
            priceTiers: z.array(z.object({ name: z.string(), price: z.number() })),
          },
          'The experience document GET /v1/brands/{brandId}/experiences/{experienceId} answers, with its id',
        ),
      )
      .optional(),
    listings: z
      .array(
        open(
          {
            id,
            published: z.boolean().optional().describe('true: a draft the import leaves is published'),
            experienceId: z.guid(),
            title: z.string(),
          },
          'The listing as version=latest shows it (less rating and medias), with its id',
        ),
      )
      .optional(),
    sessions: z
      .array(
        z
          .object({
            id,
            experienceId: z.guid(),
            startDateTime: z.string().describe("Local start in the experience's time zone: YYYY-MM-DDTHH:MM[:SS]"),
            capacity: z.number().int().min(0),
            duration: z.number().int().min(1).optional().describe("Minutes (default: the experience's)"),
          })
          .strict()
          .describe('A future one-off session: new ids are scheduled, known ones may change capacity'),
      )
      .optional(),
  })
  .strict()
  .describe("A Tessera brand's whole catalogue (GET and PUT /v1/brands/{brandId}/catalog)");

/** The document's JSON Schema. */
export function catalogJsonSchema(): Record<string, unknown> {
  return {
    $id: 'https://tessera.dev/schemas/catalog.schema.json',
    title: 'Tessera catalogue document',
    ...z.toJSONSchema(catalogDocumentSchema),
  };
}
