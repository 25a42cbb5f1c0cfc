/** An MCP client of the SDK over Streamable HTTP to a listening gateway, with a key and extra headers (a client's address through a trusted proxy). */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll } from 'vitest';

export async function mcpClient(gateway: string, key: string, headers: Record<string, string> = {}): Promise<Client> {
  const client = new Client({ name: 'tessera-test', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(`${gateway}/mcp`), {
    requestInit: { headers: { authorization: `Bearer ${key}`, ...headers } },
  });
  await client.connect(transport);
  afterAll(() => client.close());
  return client;
}

/** A tool call's JSON answer (structuredContent), with whether it was a tool error. */
export async function call(client: Client, name: string, args: Record<string, unknown>): Promise<{ isError: boolean; body: any }> {
  const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
  return { isError: result.isError === true, body: result.structuredContent };
}
