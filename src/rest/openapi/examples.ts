/**
 * An example on every request body and answer of the document. Those of successful requests were
 * recorded from the demo data (`npm run openapi:examples` writes examples.json); error answers have one
 * example per status. test/api/http/openapi.test.ts validates each against its own schema.
 */
import recorded from './examples.json' with { type: 'json' };
import { errorExamples } from './error-examples.ts';

interface Media {
  schema?: unknown;
  example?: unknown;
}
interface Operation {
  operationId?: string;
  requestBody?: { content: Record<string, Media> };
  responses?: Record<string, { content?: Record<string, Media> }>;
}
export interface RecordedExamples {
  request?: unknown;
  responses: Record<string, unknown>;
}

const examples = recorded as Record<string, RecordedExamples>;

export function addExamples<T>(document: T): T {
  const paths = (document as { paths?: Record<string, Record<string, unknown>> }).paths ?? {};
  for (const path of Object.values(paths)) {
    for (const operation of Object.values(path) as Operation[]) {
      const own = examples[operation.operationId ?? ''];
      for (const media of Object.values(operation.requestBody?.content ?? {})) media.example = own?.request;
      for (const [status, response] of Object.entries(operation.responses ?? {})) {
        for (const media of Object.values(response.content ?? {})) media.example = own?.responses[status] ?? errorExamples[status];
      }
    }
  }
  return document;
}
