/**
 * The HTTP server's own limits: how long a request may take to arrive, how long idle connections stay
 * open, how large the request line and headers may be. Refusals at this level happen before any route
 * runs, so the answer is written on the socket here, in the API's error shape.
 */
import { randomUUID } from 'node:crypto';
import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ErrorCode } from '../domain/shared/errors.ts';
import { errorStatus } from '../rest/error-status.ts';
import { sendError } from '../rest/errors.ts';
import { errorAnswer } from './error-answer.ts';
import { trustedProxies } from './client-address.ts';
import { MAX_PARAM_LENGTH, type HttpSettings } from './settings.ts';

/**
 * Node checks for overdue requests on a timer, not per byte: check ten times per timeout, so a request
 * is cut off at most 10 % late (at least every 50 ms, at most every 30 s, Node's default).
 */
const checkingInterval = (requestTimeoutMs: number) => Math.min(30_000, Math.max(50, Math.floor(requestTimeoutMs / 10)));

function refusal(error: NodeJS.ErrnoException): [ErrorCode, string] {
  if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT') return ['REQUEST_TIMEOUT', 'The request did not arrive in time'];
  if (error.code === 'HPE_HEADER_OVERFLOW') return ['HEADERS_TOO_LARGE', 'The request line and headers are too large'];
  return ['VALIDATION_FAILED', 'Malformed HTTP request'];
}

/**
 * Sockets whose current request was answered before its body had arrived (a 401 needs no body): when
 * that body then times out, the client already has its answer, and a 408 written after it would be read
 * as the answer to its next request. Those are closed without one.
 */
const answeredBeforeBody = new WeakSet<object>();

/**
 * The URL and Accept header of each socket's request in flight, so a 408 for a body that never arrives is
 * answered in the shape of the endpoint it was sent to (GraphQL's on /graphql).
 */
const requestInFlight = new WeakMap<object, { url: string; accept: string | undefined }>();

export function trackSocketRequests(app: FastifyInstance): void {
  app.addHook('onRequest', async (request) => {
    answeredBeforeBody.delete(request.raw.socket);
    requestInFlight.set(request.raw.socket, { url: request.url, accept: request.headers.accept });
  });
  app.addHook('onResponse', async (request) => {
    requestInFlight.delete(request.raw.socket);
    if (!request.raw.complete) answeredBeforeBody.add(request.raw.socket);
  });
}

/**
 * The request a refusal answers, as far as it is known: the one in flight (its headers arrived), else the
 * request line at the start of the bytes Node could not parse (headers too large, sent in one packet),
 * else none (the REST shape).
 */
function refusedRequest(error: NodeJS.ErrnoException & { rawPacket?: unknown }, socket: Socket) {
  const inFlight = requestInFlight.get(socket);
  if (inFlight) return inFlight;
  // Node sets the unparsed bytes as a Buffer (Fastify's type says otherwise).
  const bytes = Buffer.isBuffer(error.rawPacket) ? error.rawPacket.subarray(0, 512).toString('latin1') : '';
  const line = /^[A-Z]+ (\S+) HTTP\//.exec(bytes);
  return { url: line?.[1] ?? '', accept: undefined };
}

/** Answers what Node refused outside a route: overdue requests, oversized or malformed headers. */
function clientErrorHandler(this: FastifyInstance, error: NodeJS.ErrnoException & { rawPacket?: unknown }, socket: Socket): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const [code, message] = refusal(error);
  const requestId = randomUUID();
  this.log.info({ requestId, code, cause: error.code }, 'request refused by the HTTP server');
  if (socket.writable && !answeredBeforeBody.has(socket)) {
    const status = errorStatus[code];
    const answer = errorAnswer({ ...refusedRequest(error, socket), requestId }, code, message);
    const body = JSON.stringify(answer.body);
    const headers = Object.entries(answer.headers).map(([name, value]) => `${name}: ${value}\r\n`);
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nConnection: close\r\nContent-Type: ${answer.contentType}\r\n${headers.join('')}` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nX-Request-Id: ${requestId}\r\n\r\n${body}`,
    );
  }
  socket.destroy(error);
}

/** URLs the router refuses before routing (malformed escapes, overlong segments), in the API's error shape. */
function frameworkErrors(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  reply.header('x-request-id', request.id);
  if (error.code === 'FST_ERR_MAX_PARAM_LENGTH') {
    return sendError(reply, request, 'URI_TOO_LONG', `A path segment is longer than ${MAX_PARAM_LENGTH} characters`);
  }
  return sendError(reply, request, 'VALIDATION_FAILED', 'The URL is malformed', { field: 'url' });
}

export function serverOptions(settings: HttpSettings) {
  return {
    requestTimeout: settings.requestTimeoutMs,
    keepAliveTimeout: settings.keepAliveTimeoutMs,
    connectionTimeout: settings.connectionTimeoutMs,
    http: {
      maxHeaderSize: settings.maxHeaderBytes,
      requestTimeout: settings.requestTimeoutMs,
      connectionsCheckingInterval: checkingInterval(settings.requestTimeoutMs),
    },
    routerOptions: { maxParamLength: MAX_PARAM_LENGTH },
    clientErrorHandler,
    frameworkErrors,
    ...(settings.trustProxy.length > 0 ? { trustProxy: trustedProxies(settings.trustProxy) } : {}),
  };
}
