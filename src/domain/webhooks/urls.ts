/**
 * Which URLs a webhook may target. Checked when an endpoint is created and again before every delivery,
 * since what a host name resolves to can change after it was checked (DNS rebinding).
 */
import { invalid } from '../shared/errors.ts';
import { isIpLiteral, nonPublicKind } from './addresses.ts';
import type { WebhookUrlPolicy } from './settings.ts';

export const MAX_WEBHOOK_URL_LENGTH = 2048;

/** "a loopback address", "an IPv4-translated address": the kind as a phrase. */
const anAddress = (kind: string) =>
  `${/^(?:[aeiou]|IETF|IPv|AS1|AMT|ORCHID)/.test(kind) && !kind.startsWith('uni') ? 'an' : 'a'} ${kind} address`;

/** Why requests to `url` must not be sent under `policy` (a phrase following "url ..."), or null. */
export async function targetProblem(policy: WebhookUrlPolicy, url: URL): Promise<string | null> {
  if (policy.allowPrivateUrls) return null;
  const host = url.hostname
    .replace(/^\[(.*)\]$/, '$1')
    .replace(/\.$/, '')
    .toLowerCase();
  if (isIpLiteral(host)) {
    const kind = nonPublicKind(host);
    return kind ? `points to ${anAddress(kind)} (${host})` : null;
  }
  if (host === 'localhost' || host.endsWith('.localhost')) return `points to a loopback address (${host})`;
  let addresses: string[];
  try {
    addresses = await policy.lookup(host);
  } catch {
    return `host ${host} does not resolve`;
  }
  if (addresses.length === 0) return `host ${host} does not resolve`;
  for (const address of addresses) {
    const kind = nonPublicKind(address);
    if (kind) return `host ${host} resolves to ${anAddress(kind)} (${address})`;
  }
  return null;
}

/**
 * The URL to store for `raw` (normalized: `HTTPS://Example.com` -> `https://example.com/`), or
 * VALIDATION_FAILED naming `field`: not an absolute http(s) URL, too long, plain http where https is
 * required, credentials in it, or a target the policy refuses.
 */
export async function checkWebhookUrl(policy: WebhookUrlPolicy, raw: string, field = 'url'): Promise<string> {
  let url: URL | null = null;
  try {
    url = new URL(raw);
  } catch {
    url = null;
  }
  if (!url || (url.protocol !== 'https:' && url.protocol !== 'http:')) {
    throw invalid(field, `${field} must be an absolute http or https URL`);
  }
  if (raw.length > MAX_WEBHOOK_URL_LENGTH || url.href.length > MAX_WEBHOOK_URL_LENGTH) {
    throw invalid(field, `${field} must be at most ${MAX_WEBHOOK_URL_LENGTH} characters`);
  }
  if (policy.httpsOnly && url.protocol !== 'https:') throw invalid(field, `${field} must use https`);
  // The URL is shown in listings and logs; requests are authenticated by their signature instead.
  if (url.username || url.password) throw invalid(field, `${field} must not contain a user name or password`);
  const problem = await targetProblem(policy, url);
  if (problem) throw invalid(field, `${field} ${problem}: webhooks may only target public addresses`);
  return url.href;
}
