/**
 * The MCP server of one request (stateless: every POST to /mcp builds one for its caller and closes it
 * once answered, so any gateway serves any call of a client, and nothing of a session is kept).
 *
 * Tools are registered with the SDK, which lists them with their JSON Schemas; calls are dispatched here
 * instead of by the SDK's own handler, which would answer a malformed argument with zod's text: here it
 * is VALIDATION_FAILED naming the field (a dotted path into the arguments), the same code and field a
 * REST body gets, and every other failure a tool error with the domain's code.
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { CallToolRequestSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { assertKeyMayUse } from '../domain/access/publishable.ts';
import { DomainError } from '../domain/shared/errors.ts';
import { turnedAwayBy } from '../http/database-unavailable.ts';
import { answer, domainToolError, invalidArguments, toolError } from './answers.ts';
import { registerPrompts } from './prompts.ts';
import { registerResources } from './resources.ts';
import { admit, type Tool, type ToolContext } from './tool.ts';
import { cartStatusTool, holdPlacesTool, joinWaitlistTool, quoteCartTool } from './tools/booking.ts';
import { checkAvailabilityTool, getExperienceTool, searchExperiencesTool } from './tools/catalogue.ts';
import { cancelBookingTool, getBookingTool, refundBookingTool } from './tools/staff.ts';

export const tools: readonly Tool[] = [
  searchExperiencesTool,
  getExperienceTool,
  checkAvailabilityTool,
  quoteCartTool,
  holdPlacesTool,
  cartStatusTool,
  joinWaitlistTool,
  getBookingTool,
  cancelBookingTool,
  refundBookingTool,
];
const byName = new Map(tools.map((t) => [t.name, t]));

const instructions =
  "Tessera sells a brand's experiences (tours, classes, tastings). Search with search_experiences, read one with " +
  'get_experience, find sessions with check_availability, price with quote_cart. hold_places holds the places for a few ' +
  'minutes and answers a paymentLink: give it to the traveller, who pays there (never ask for card details); cart_status ' +
  'tells when it is paid. Amounts come in minor units with `formatted` for people; times are local with their time zone.';

async function callTool(context: ToolContext, name: string, args: unknown): Promise<CallToolResult> {
  const found = byName.get(name);
  if (!found) return toolError('NOT_FOUND', `No tool named ${name}: tools/list names them`, { field: 'name' });
  try {
    assertKeyMayUse(context.caller.principal, found.use, `use the tool ${name}`);
    const parsed = found.input.safeParse(args ?? {});
    if (!parsed.success) return invalidArguments(parsed.error);
    if (found.writes) admit(context);
    return answer(await found.run(context, parsed.data));
  } catch (error) {
    if (error instanceof DomainError) return domainToolError(error);
    const away = turnedAwayBy(error);
    if (away) {
      away.log(context.log, error as Error, { tool: name });
      return toolError(away.code, away.message, { retryAfterSeconds: away.retryAfterSeconds });
    }
    context.log.error({ err: error, tool: name }, 'MCP tool failed');
    return toolError('INTERNAL_SERVER_ERROR', 'Something went wrong on our side; the request id is in the X-Request-Id header');
  }
}

export function mcpServer(context: ToolContext, version: string): McpServer {
  const server = new McpServer(
    { name: 'tessera', title: 'Tessera', version },
    { capabilities: { tools: {}, resources: {}, prompts: {} }, instructions },
  );
  const notCalled = () => {
    throw new Error('dispatched by callTool');
  };
  for (const t of tools) {
    server.registerTool(
      t.name,
      { title: t.title, description: t.description, inputSchema: t.input, annotations: t.annotations },
      notCalled,
    );
  }
  server.server.setRequestHandler(CallToolRequestSchema, (request) => callTool(context, request.params.name, request.params.arguments));
  registerResources(server, context);
  registerPrompts(server);
  return server;
}
