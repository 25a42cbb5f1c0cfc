import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { turnedAwayBy } from '../http/database-unavailable.ts';
import { errorAnswer } from '../http/error-answer.ts';
import { DomainError, type ErrorCode, type ErrorDetails } from '../domain/shared/errors.ts';
import { errorStatus } from './error-status.ts';

/**
 * Every error Fastify answers (this handler, the rate limit, not-found and method refusals, draining):
 * REST's `{ error }`, or on /graphql the GraphQL shape with the same code and status (src/http/error-answer.ts).
 */
export function sendError(reply: FastifyReply, request: FastifyRequest, code: ErrorCode, message: string, details?: ErrorDetails) {
  const answer = errorAnswer({ url: request.url, accept: request.headers.accept, requestId: String(request.id) }, code, message, details);
  return reply.status(errorStatus[code]).headers(answer.headers).type(answer.contentType).send(answer.body);
}

interface AjvError {
  instancePath: string;
  message?: string;
  params: Record<string, unknown>;
}

/** `body` + `/bookings/0/bookingId` -> `bookings.0.bookingId`; params and query name the parameter. */
function fieldOf(error: AjvError): string {
  const segments = error.instancePath.split('/').filter(Boolean);
  const missing = error.params.missingProperty;
  if (typeof missing === 'string') segments.push(missing);
  const extra = error.params.additionalProperty;
  if (typeof extra === 'string') segments.push(extra);
  return segments.join('.');
}

function validationMessage(error: AjvError, field: string, context: string): string {
  if (error.params.missingProperty) return `${field || context} is required`;
  if (error.params.additionalProperty) return `${field} is not a known field`;
  if (Array.isArray(error.params.allowedValues)) return `${field} must be one of ${error.params.allowedValues.map(String).join(', ')}`;
  return `${field || context} ${error.message ?? 'is invalid'}`;
}

const statusCodes: Partial<Record<number, ErrorCode>> = {
  400: 'VALIDATION_FAILED',
  401: 'UNAUTHENTICATED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  405: 'METHOD_NOT_ALLOWED',
  413: 'PAYLOAD_TOO_LARGE',
  415: 'UNSUPPORTED_MEDIA_TYPE',
};

/** The one place REST turns failures into `{ error: { code, message, details, requestId } }`. */
export function restErrorHandler(error: FastifyError | DomainError | Error, request: FastifyRequest, reply: FastifyReply) {
  if (error instanceof DomainError) {
    // A refusal that passes with time (HOLD_LIMIT_REACHED) says when in its details; HTTP clients read Retry-After.
    const retryAfter = error.details?.retryAfterSeconds;
    if (typeof retryAfter === 'number') reply.header('retry-after', String(retryAfter));
    return sendError(reply, request, error.code, error.message, error.details);
  }
  const away = turnedAwayBy(error);
  if (away) {
    away.log(request.log, error);
    reply.header('retry-after', String(away.retryAfterSeconds));
    return sendError(reply, request, away.code, away.message);
  }
  const fastifyError = error as FastifyError;
  if (fastifyError.validation) {
    const first = fastifyError.validation[0] as AjvError;
    const field = fieldOf(first);
    return sendError(reply, request, 'VALIDATION_FAILED', validationMessage(first, field, fastifyError.validationContext ?? 'input'), {
      field: field || (fastifyError.validationContext ?? 'body'),
    });
  }
  const status = fastifyError.statusCode;
  const code = status !== undefined ? statusCodes[status] : undefined;
  if (code) return sendError(reply, request, code, fastifyError.message);
  request.log.error({ err: error }, 'request failed');
  return sendError(reply, request, 'INTERNAL_SERVER_ERROR', 'Internal server error');
}
