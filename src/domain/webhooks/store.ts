import type { WebhookDeliveryStatus } from '../shared/values.ts';

/** A delivery ready to send, with what sending needs from its endpoint and event. */
export interface DueDelivery {
  id: string;
  attempts: number;
  createdAt: string;
  nextAttemptAt: string;
  endpointId: string;
  url: string;
  secretCiphertext: string;
  /** The endpoint is disabled: the delivery is given up, never sent. */
  endpointDisabled: boolean;
  event: { id: string; type: string; createdAt: string; payload: Record<string, unknown> };
}

export interface AttemptResult {
  attempts: number;
  /** When the attempt started. */
  attemptedAt: string;
  /** When its outcome was known. */
  finishedAt: string;
  statusCode: number | null;
  error: string | null;
  /** `delivered` and `failed` end the delivery; `pending` retries at `nextAttemptAt`. */
  status: WebhookDeliveryStatus;
  nextAttemptAt: string | null;
}

export interface WebhookEndpointRow {
  id: string;
  brandId: string;
  url: string;
  /** Event types delivered to this endpoint. */
  eventTypes: string[];
  /** The signing secret, encrypted (AES-256-GCM) with the server's key: it must be readable to sign. */
  secretCiphertext: string;
  createdAt: string;
  /** Deleted endpoints keep their delivery log and receive nothing more. */
  deletedAt: string | null;
  /** When its current run of failed attempts began (the first failure since its last success); null while it succeeds. */
  failingSince: string | null;
  /** Disabled endpoints get no attempts until enabled again. */
  disabledAt: string | null;
}

/** What a delivery log is narrowed to: one brand, optionally one endpoint and one status. */
export interface DeliveryFilter {
  brandId: string;
  endpointId?: string | null;
  status?: WebhookDeliveryStatus | null;
}

/** A position in newest-first order (by event, then delivery id): the last delivery seen. */
export interface DeliveryKey {
  eventSequence: number;
  id: string;
}

export interface DeliveryLogRow extends WebhookDeliveryRow {
  eventId: string;
  eventType: string;
}

export type { WebhookDeliveryStatus } from '../shared/values.ts';

export interface WebhookDeliveryRow {
  id: string;
  endpointId: string;
  eventSequence: number;
  /** Copied from the event: an endpoint gets one resource's events strictly in order. */
  resourceId: string;
  status: WebhookDeliveryStatus;
  attempts: number;
  nextAttemptAt: string;
  lastAttemptAt: string | null;
  lastStatusCode: number | null;
  lastError: string | null;
  createdAt: string;
  deliveredAt: string | null;
  /** While an attempt is in flight: when its lease ends. */
  leasedUntil: string | null;
}

export interface WebhookDispatchStore {
  /**
   * Up to `limit` pending deliveries due at `now`, of live endpoints (disabled ones included), in event
   * order (the deliveries of one event: the one due first first, then by delivery id). A delivery whose
   * endpoint still has an earlier pending delivery for the same resource waits (leased ones included),
   * so each resource's events reach an endpoint strictly in order; hence at most one per (endpoint,
   * resource). With `perEndpoint`, an endpoint gets at most that many leased at `now` (by any caller, on
   * any gateway) plus given here: its earliest due ones, so a slow endpoint's backlog never takes the
   * places of the others'.
   */
  findDueDeliveries(now: string, limit: number, perEndpoint?: number): Promise<DueDelivery[]>;
  /**
   * Claims what `findDueDeliveries(now, limit, perEndpoint)` would give: leases each one until `until`
   * (its next attempt moves there, and it counts against its endpoint's `perEndpoint` until then), a
   * lease no other caller (in this process, another process or another gateway) gets past before it
   * ends, and returns them so (`nextAttemptAt` = `until`). A delivery (with `perEndpoint`, an endpoint)
   * another caller is claiming at that moment is skipped, not waited for. Atomic on its own: not for use
   * inside a unit of work.
   */
  claimDueDeliveries(now: string, limit: number, until: string, perEndpoint?: number): Promise<DueDelivery[]>;
  /**
   * Records an attempt's outcome and ends its lease, unless the delivery stopped being pending meanwhile
   * (endpoint deleted or disabled), and notes it on the endpoint: a success clears `failingSince`, a
   * failure sets it to `attemptedAt` unless already set. Returns the endpoint's `failingSince` then.
   */
  recordAttempt(id: string, result: AttemptResult): Promise<{ failingSince: string | null }>;
  /** Gives up a pending delivery without an attempt (its endpoint is disabled), ending its lease. */
  giveUpDelivery(id: string, reason: string): Promise<void>;
  /**
   * Disables the endpoint at `at` if it is live, enabled and failing since `failingSinceBy` or earlier,
   * and gives up its pending deliveries with `reason`: true when it did (false when another caller did,
   * or a success came meanwhile).
   */
  disableFailingEndpoint(id: string, failingSinceBy: string, at: string, reason: string): Promise<boolean>;
}

export interface WebhooksStore {
  insertWebhookEndpoint(row: {
    id: string;
    createdAt: string;
    brandId: string;
    url: string;
    eventTypes: string[];
    secretCiphertext: string;
    deletedAt?: string | null | undefined;
    failingSince?: string | null | undefined;
    disabledAt?: string | null | undefined;
  }): Promise<WebhookEndpointRow>;
  /** The brand's endpoints that are not deleted, oldest first (in creation order when created in the same millisecond). */
  liveWebhookEndpoints(brandId: string): Promise<WebhookEndpointRow[]>;
  /** The endpoint, deleted or not. */
  findWebhookEndpoint(id: string): Promise<WebhookEndpointRow | undefined>;
  /** Marks the endpoint deleted at `at` (once) and gives up its pending deliveries with `reason`. */
  deleteWebhookEndpointRow(id: string, at: string, reason: string): Promise<void>;
  /** Marks the live endpoint disabled at `at` (once) and gives up its pending deliveries with `reason`. */
  disableWebhookEndpointRow(id: string, at: string, reason: string): Promise<void>;
  /** Enables the live endpoint again: not disabled, not failing. */
  enableWebhookEndpointRow(id: string): Promise<void>;
  /** Up to `limit` deliveries older than `after` (from the newest without it), newest first. */
  findDeliveryPage(filter: DeliveryFilter, after: DeliveryKey | null, limit: number): Promise<DeliveryLogRow[]>;
  /** How many deliveries match, and how many sit at or before `after` in newest-first order. */
  countDeliveries(filter: DeliveryFilter, after: DeliveryKey | null): Promise<{ total: number; before: number }>;
  /** Up to `limit` endpoints' sealed secrets (deleted ones too) with ids after `afterId`, in id order, for re-encryption. */
  sealedSecretsPage(afterId: string | null, limit: number): Promise<Array<{ id: string; secretCiphertext: string }>>;
  /** Swaps the endpoint's sealed secret `previous` for `next`, unless it changed meanwhile: true when swapped. */
  replaceSealedSecret(id: string, previous: string, next: string): Promise<boolean>;
}
