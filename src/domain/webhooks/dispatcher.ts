/**
 * Delivers pending webhook deliveries: at least once (a delivery is leased in the database before it
 * is sent, so one interrupted by a crash is sent again when its lease ends), in event order per
 * (endpoint, resource), retrying failures with exponential backoff until the maximum age.
 *
 * Endpoints are kept apart: each has at most `endpointConcurrency` deliveries leased at once, counted in
 * the database over every gateway, so a slow or silent endpoint holds that many of a gateway's
 * `concurrency` places (each for at most the attempt timeout) and the others keep theirs. An endpoint
 * whose attempts have all failed for `disableAfterSeconds` is disabled: its pending deliveries are given
 * up, later ones are given up without an attempt, and a warning is logged, until the brand enables it.
 */
import type { Database } from '../shared/database.ts';
import { type DueDelivery } from './store.ts';
import { eventEnvelope } from '../outbox/outbox.ts';
import { nextAttemptAt } from './backoff.ts';
import { decryptSecret, signatureHeader } from './secrets.ts';
import type { WebhookSender, WebhookSettings } from './settings.ts';
import { targetProblem } from './urls.ts';

export interface DispatcherDeps {
  db: Database;
  now: () => Date;
  sender: WebhookSender;
  /** Where failures of the dispatcher itself are reported (a pino logger fits). */
  log: { error(details: object, message: string): void; warn(details: object, message: string): void };
}

export interface DispatcherOptions extends WebhookSettings {
  /** How often due deliveries are looked for (a finished delivery also looks at once). */
  tickMs?: number;
  /** Deliveries this process has in flight at once, at most. */
  concurrency: number;
  /** Deliveries one endpoint has in flight at once, at most, over every process and gateway. */
  endpointConcurrency: number;
  /** An endpoint whose attempts have all failed for this long (since its last success) is disabled. */
  disableAfterSeconds: number;
  /** A lease lasts the timeout plus this, so a slow answer is not sent twice by a second process. */
  leaseMarginMs?: number;
}

interface Outcome {
  statusCode: number | null;
  error: string | null;
}

const USER_AGENT = 'Tessera-Webhooks/1.0';
/** Why a disabled endpoint's deliveries are given up (the delivery log's `lastError`). */
export const ENDPOINT_DISABLED = 'endpoint disabled';

const TIMED_OUT = Symbol('timed out');

/** `work`'s value, or TIMED_OUT once `ms` have passed (the work itself goes on, unawaited). */
async function within<T>(work: Promise<T>, ms: number): Promise<T | typeof TIMED_OUT> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<typeof TIMED_OUT>((resolve) => {
    timer = setTimeout(() => resolve(TIMED_OUT), ms);
  });
  try {
    return await Promise.race([work, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Claims up to `limit` due deliveries with a lease, so no other process or gateway sends them
 * meanwhile; one killed mid-send loses them when the lease ends, and another sends them then.
 */
async function leaseDue(deps: DispatcherDeps, options: DispatcherOptions, limit: number): Promise<DueDelivery[]> {
  const now = deps.now();
  // Most ticks find nothing: look without writing first.
  const cap = options.endpointConcurrency;
  if ((await deps.db.webhookDispatch.findDueDeliveries(now.toISOString(), 1, cap)).length === 0) return [];
  const until = new Date(now.getTime() + options.timeoutMs + (options.leaseMarginMs ?? 5000)).toISOString();
  return deps.db.webhookDispatch.claimDueDeliveries(now.toISOString(), limit, until, cap);
}

async function attempt(deps: DispatcherDeps, options: DispatcherOptions, due: DueDelivery): Promise<Outcome> {
  // The whole attempt, name resolution included, fits in the timeout (and so in its lease).
  const startedAt = performance.now();
  // Checked again at every attempt: the host may resolve elsewhere than when the endpoint was made.
  const problem = await within(targetProblem(options, new URL(due.url)), options.timeoutMs);
  if (problem === TIMED_OUT) return { statusCode: null, error: `timed out after ${options.timeoutMs} ms (resolving the host)` };
  if (problem) return { statusCode: null, error: `url ${problem}` };
  let secret: string;
  try {
    secret = decryptSecret(options.encryptionKeys, due.secretCiphertext, due.endpointId);
  } catch {
    return {
      statusCode: null,
      error: 'signing secret cannot be decrypted: no key in ENCRYPTION_KEYS opens it (was the key that sealed it removed?)',
    };
  }
  const body = JSON.stringify(eventEnvelope(due.event));
  const headers = {
    'content-type': 'application/json',
    'user-agent': USER_AGENT,
    'tessera-event-id': due.event.id,
    'tessera-signature': signatureHeader(secret, body, deps.now()),
  };
  try {
    const { status } = await deps.sender.send({ url: due.url, headers, body, timeoutMs: options.timeoutMs, startedAt });
    if (status >= 200 && status < 300) return { statusCode: status, error: null };
    const redirect = status >= 300 && status < 400 ? ' (redirects are not followed)' : '';
    return { statusCode: status, error: `HTTP ${status}${redirect}` };
  } catch (error) {
    return { statusCode: null, error: (error instanceof Error ? error.message : String(error)).slice(0, 200) };
  }
}

/** Disables the endpoint once its attempts have all failed for `disableAfterSeconds` (once, over every gateway). */
async function disableIfFailingTooLong(
  deps: DispatcherDeps,
  options: DispatcherOptions,
  due: DueDelivery,
  failingSince: string,
  now: Date,
) {
  const by = new Date(now.getTime() - options.disableAfterSeconds * 1000);
  if (Date.parse(failingSince) > by.getTime()) return;
  if (await deps.db.webhookDispatch.disableFailingEndpoint(due.endpointId, by.toISOString(), now.toISOString(), ENDPOINT_DISABLED)) {
    deps.log.warn(
      { endpointId: due.endpointId, failingSince, disableAfterSeconds: options.disableAfterSeconds },
      'webhook endpoint disabled: every attempt failed since failingSince; its pending deliveries are given up until the brand enables it',
    );
  }
}

async function deliver(deps: DispatcherDeps, options: DispatcherOptions, due: DueDelivery): Promise<void> {
  // Fanned out to it before or after it was disabled: given up without an attempt.
  if (due.endpointDisabled) {
    await deps.db.webhookDispatch.giveUpDelivery(due.id, ENDPOINT_DISABLED);
    return;
  }
  const attemptedAt = deps.now().toISOString();
  const outcome = await attempt(deps, options, due);
  const finished = deps.now();
  const attempts = due.attempts + 1;
  const base = { attempts, attemptedAt, finishedAt: finished.toISOString(), statusCode: outcome.statusCode, error: outcome.error };
  if (!outcome.error) {
    await deps.db.webhookDispatch.recordAttempt(due.id, { ...base, status: 'delivered', nextAttemptAt: null });
    return;
  }
  const next = nextAttemptAt({
    createdAt: due.createdAt,
    attempts,
    now: finished,
    retryBaseSeconds: options.retryBaseSeconds,
    maxAgeSeconds: options.maxAgeSeconds,
  });
  const { failingSince } = await deps.db.webhookDispatch.recordAttempt(due.id, {
    ...base,
    status: next ? 'pending' : 'failed',
    nextAttemptAt: next,
  });
  if (failingSince) await disableIfFailingTooLong(deps, options, due, failingSince, finished);
}

/**
 * Starts delivering every `tickMs` (500 ms by default; the timer does not keep the process alive).
 * The returned function stops looking for work and resolves once the deliveries in flight are recorded.
 */
export function startWebhookDispatcher(deps: DispatcherDeps, options: DispatcherOptions): () => Promise<void> {
  const { concurrency } = options;
  const inFlight = new Set<Promise<void>>();
  let stopped = false;
  // One lease at a time: a timer tick while another is still leasing would count the same free slots.
  let leasing = false;
  // A delivery finished while leasing: look again right after, not at the next timer tick.
  let again = false;

  const tick = async () => {
    if (stopped) return;
    if (leasing) {
      again = true;
      return;
    }
    if (inFlight.size >= concurrency) return;
    again = false;
    let leased: DueDelivery[];
    leasing = true;
    try {
      leased = await leaseDue(deps, options, concurrency - inFlight.size);
    } catch (error) {
      deps.log.error({ err: error }, 'leasing webhook deliveries failed');
      return;
    } finally {
      leasing = false;
    }
    for (const due of leased) {
      const run: Promise<void> = deliver(deps, options, due)
        .catch((error: unknown) => deps.log.error({ err: error, deliveryId: due.id }, 'recording a webhook delivery failed'))
        .finally(() => {
          inFlight.delete(run);
          // The resource's next event may be due now: do not wait for the timer.
          void tick();
        });
      inFlight.add(run);
    }
    if (again) void tick();
  };

  const timer = setInterval(() => void tick(), options.tickMs ?? 500);
  timer.unref();
  return async () => {
    stopped = true;
    clearInterval(timer);
    await Promise.allSettled([...inFlight]);
  };
}
