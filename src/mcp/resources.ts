/**
 * Resources an assistant can attach as context: a brand's listed experiences (what search answers, all
 * of them) and its policies (cancellation, reschedule). Read with the caller's key, as the tools read:
 * another brand's answer is NOT_FOUND (-32002), a key that may not act for it FORBIDDEN.
 */
import { type McpServer, ResourceTemplate } from '@modelcontextprotocol/sdk/server/mcp.js';
import { ErrorCode, McpError, type ReadResourceResult } from '@modelcontextprotocol/sdk/types.js';
import { getBrandSettings } from '../domain/catalog/brands.ts';
import { searchExperiences, type ExperienceSearchHit } from '../domain/catalog/search.ts';
import { DomainError } from '../domain/shared/errors.ts';
import type { ToolContext } from './tool.ts';
import { brandOf, experienceSummary } from './tools/shapes.ts';

/** A catalogue larger than this is for search_experiences, a page at a time. */
const MAX_LISTED = 200;
const RESOURCE_NOT_FOUND = -32002;

function json(uri: URL, value: unknown): ReadResourceResult {
  return { contents: [{ uri: uri.href, mimeType: 'application/json', text: JSON.stringify(value) }] };
}

async function reading(read: () => Promise<ReadResourceResult>): Promise<ReadResourceResult> {
  try {
    return await read();
  } catch (error) {
    if (!(error instanceof DomainError)) throw error;
    const code = error.code === 'NOT_FOUND' ? RESOURCE_NOT_FOUND : ErrorCode.InvalidParams;
    throw new McpError(code, `${error.code}: ${error.message}`, { code: error.code, details: error.details });
  }
}

const variable = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value);

export function registerResources(server: McpServer, { caller }: ToolContext): void {
  const brands = caller.principal.brandIds;
  const listed = (path: string, name: string) => () => ({
    resources: brands.map((brandId) => ({
      uri: `tessera://brands/${brandId}/${path}`,
      name: `${name} of brand ${brandId}`,
      mimeType: 'application/json',
    })),
  });

  server.registerResource(
    'experiences',
    new ResourceTemplate('tessera://brands/{brandId}/experiences', { list: listed('experiences', 'Experiences') }),
    {
      title: "A brand's experiences",
      description: 'Every listed experience of the brand, as search_experiences shows them (at most 200).',
      mimeType: 'application/json',
    },
    (uri, variables) =>
      reading(async () => {
        const { brand, language } = await brandOf(caller, variable(variables.brandId), undefined);
        const hits: ExperienceSearchHit[] = [];
        let after: string | null = null;
        do {
          const page = await searchExperiences(caller, { brandId: brand.id, language, first: 50, after });
          hits.push(...page.items);
          after = page.nextCursor;
        } while (after && hits.length < MAX_LISTED);
        return json(uri, { brandId: brand.id, experiences: hits.map((hit) => experienceSummary(hit.experience, language)) });
      }),
  );

  server.registerResource(
    'policies',
    new ResourceTemplate('tessera://brands/{brandId}/policies', { list: listed('policies', 'Policies') }),
    {
      title: "A brand's policies",
      description:
        "The brand's cancellation policy (full refund up to fullRefundHoursBefore the start, then lateRefundPercent) and reschedule policy. An experience may have a cancellation policy of its own (get_experience).",
      mimeType: 'application/json',
    },
    (uri, variables) =>
      reading(async () => {
        const { brand } = await brandOf(caller, variable(variables.brandId), undefined);
        const settings = await getBrandSettings(caller, { brandId: brand.id, include: ['cancellationPolicy', 'reschedulePolicy'] });
        return json(uri, {
          brandId: brand.id,
          cancellation: settings.cancellationPolicy ?? null,
          reschedule: settings.reschedulePolicy ?? null,
        });
      }),
  );
}
