/**
 * Delivers pending webhook deliveries: at least once (a delivery is leased in the database before it
 * is sent, so one interrupted by a crash is sent again when its lease ends), in event order per
 * (endpoint, resource), retrying failures with exponential backoff until the maximum age.
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
  log: { error(details: object, message: string): void };
}

export interface DispatcherOptions extends WebhookSettings {
  /** How often due deliveries are looked for (a finished delivery also looks at once). */
  tickMs?: number;
  /** Deliveries in flight at once, at most. */
  concurrency?: number;
  /** A lease lasts the timeout plus this, so a slow answer is not sent twice by a second process. */
  leaseMarginMs?: number;
}

interface Outcome {
  statusCode: number | null;
  error: string | null;
}

const USER_AGENT = 'Tessera-Webhooks/1.0';

/**
 * Claims up to `limit` due deliveries with a lease, so no other process or gateway sends them
 * meanwhile; one killed mid-send loses them when the lease ends, and another sends them then.
 */
async function leaseDue(deps: DispatcherDeps, options: DispatcherOptions, limit: number): Promise<DueDelivery[]> {
  const now = deps.now();
  // Most ticks find nothing: look without writing first.
  if ((await deps.db.webhookDispatch.findDueDeliveries(now.toISOString(), 1)).length === 0) return [];
  const until = new Date(now.getTime() + options.timeoutMs + (options.leaseMarginMs ?? 5000)).toISOString();
  return deps.db.webhookDispatch.claimDueDeliveries(now.toISOString(), limit, until);
}

async function attempt(deps: DispatcherDeps, options: DispatcherOptions, due: DueDelivery): Promise<Outcome> {
  // Checked again at every attempt: the host may resolve elsewhere than when the endpoint was made.
  const problem = await targetProblem(options, new URL(due.url));
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
    const { status } = await deps.sender.send({ url: due.url, headers, body, timeoutMs: options.timeoutMs });
    if (status >= 200 && status < 300) return { statusCode: status, error: null };
    const redirect = status >= 300 && status < 400 ? ' (redirects are not followed)' : '';
    return { statusCode: status, error: `HTTP ${status}${redirect}` };
  } catch (error) {
    return { statusCode: null, error: (error instanceof Error ? error.message : String(error)).slice(0, 200) };
  }
}

async function deliver(deps: DispatcherDeps, options: DispatcherOptions, due: DueDelivery): Promise<void> {
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
  await deps.db.webhookDispatch.recordAttempt(due.id, { ...base, status: next ? 'pending' : 'failed', nextAttemptAt: next });
}

/**
 * Starts delivering every `tickMs` (500 ms by default; the timer does not keep the process alive).
 * The returned function stops looking for work and resolves once the deliveries in flight are recorded.
 */
export function startWebhookDispatcher(deps: DispatcherDeps, options: DispatcherOptions): () => Promise<void> {
  const concurrency = options.concurrency ?? 4;
  const inFlight = new Set<Promise<void>>();
  let stopped = false;
  // One lease at a time: a timer tick while another is still leasing would count the same free slots.
  let leasing = false;

  const tick = async () => {
    if (stopped || leasing || inFlight.size >= concurrency) return;
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
  };

  const timer = setInterval(() => void tick(), options.tickMs ?? 500);
  timer.unref();
  return async () => {
    stopped = true;
    clearInterval(timer);
    await Promise.allSettled([...inFlight]);
  };
}
