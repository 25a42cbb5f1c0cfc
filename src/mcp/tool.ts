/**
 * A tool of the MCP face: its name, what an assistant reads about it, its arguments as a zod schema (the
 * SDK lists it as JSON Schema), which publishable use it belongs to (none: secret keys only, as REST
 * routes), and `run`, which unpacks the arguments, calls domain functions and shapes the answer.
 */
import type { ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';
import type { FastifyBaseLogger } from 'fastify';
import type { z } from 'zod';
import { DatabaseOverloadedError } from '../domain/shared/database.ts';
import type { PublishableUse } from '../domain/access/publishable.ts';
import type { CallerDeps } from '../domain/shared/deps.ts';
import type { McpSettings } from './settings.ts';

export interface ToolContext {
  caller: CallerDeps;
  settings: McpSettings;
  /** Counts the request as a write (src/http/write-admission.ts); false when the gateway has as many as it takes. */
  admitWrite: () => boolean;
  log: FastifyBaseLogger;
}

export interface Tool<S extends z.ZodObject = z.ZodObject> {
  name: string;
  title: string;
  description: string;
  /** The publishable use it belongs to (src/domain/access/publishable.ts); absent: secret keys only. */
  use: PublishableUse | undefined;
  /** Writes: admitted at the gateway's write limit like a REST write. */
  writes: boolean;
  input: S;
  annotations: ToolAnnotations;
  run(context: ToolContext, args: z.infer<S>): Promise<Record<string, unknown>>;
}

/** Keeps each tool's `run` typed by its own schema. */
export const tool = <S extends z.ZodObject>(definition: Tool<S>): Tool => definition as unknown as Tool;

/** A write tool's admission, as a REST write's at the door: refused OVERLOADED when the gateway has as many writes as it takes. */
export function admit(context: ToolContext): void {
  if (!context.admitWrite()) throw new DatabaseOverloadedError('write admission: WRITE_QUEUE_LIMIT writes in flight');
}
