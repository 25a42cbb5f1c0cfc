/**
 * Sends webhook deliveries over HTTP(S) with node:http. Not `fetch`: node:http takes a `lookup` hook,
 * which pins the connection to an address checked when connecting (see publicOnlyLookup). Redirects
 * are never followed; the answer's body is drained and ignored.
 */
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { WebhookRequest, WebhookSender } from '../../domain/webhooks/settings.ts';
import { publicOnlyLookup } from './dns.ts';

/** A short reason for the delivery log: no stack, no headers, nothing secret. */
function describe(error: NodeJS.ErrnoException, timeoutMs: number): string {
  if (error.name === 'AbortError' || error.code === 'ABORT_ERR') return `timed out after ${timeoutMs} ms`;
  switch (error.code) {
    case 'ECONNREFUSED':
      return 'connection refused';
    case 'ECONNRESET':
      return 'connection reset';
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return 'host not found';
    case 'ENONPUBLIC':
      return error.message;
    default:
      return error.code ? `request failed (${error.code})` : 'request failed';
  }
}

/** What is left of the attempt's time (whole milliseconds, at least 1). */
function remainingMs(webhook: WebhookRequest): number {
  const spent = webhook.startedAt === undefined ? 0 : performance.now() - webhook.startedAt;
  return Math.max(1, Math.ceil(webhook.timeoutMs - spent));
}

export class HttpSender implements WebhookSender {
  constructor(private readonly options: { allowPrivateAddresses: boolean }) {}

  send(webhook: WebhookRequest): Promise<{ status: number }> {
    const url = new URL(webhook.url);
    const request = url.protocol === 'https:' ? httpsRequest : httpRequest;
    return new Promise((resolve, reject) => {
      const outgoing = request(
        url,
        {
          method: 'POST',
          headers: { ...webhook.headers, 'content-length': String(Buffer.byteLength(webhook.body)) },
          // Bounds everything, a peer that accepts the connection and never answers included: connecting,
          // writing the body, and waiting for the status line and headers. A body still arriving when it
          // fires is cut off with the socket (agent: false), after the status was taken.
          signal: AbortSignal.timeout(remainingMs(webhook)),
          agent: false,
          ...(this.options.allowPrivateAddresses ? {} : { lookup: publicOnlyLookup }),
        },
        (response) => {
          // The status is all we need; a body cut short later (timeout) is not an error of this delivery.
          response.on('error', () => {});
          response.resume();
          resolve({ status: response.statusCode ?? 0 });
        },
      );
      outgoing.on('error', (error: NodeJS.ErrnoException) => reject(new Error(describe(error, webhook.timeoutMs))));
      outgoing.end(webhook.body);
    });
  }
}
