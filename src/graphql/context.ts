import type { Principal } from '../auth/principal.ts';
import type { Deps } from '../domain/context.ts';
import type { WebhookSettings } from '../domain/webhook-settings.ts';
import type { Loaders } from './loaders.ts';

/** Per-request GraphQL context. `caller()` throws UNAUTHENTICATED when the request had no key. */
export interface GraphQLContext extends Deps {
  requestId: string;
  principal: Principal | null;
  caller(): Deps & { principal: Principal };
  loaders: Loaders;
  /** Webhook URL rules and the key encrypting signing secrets (only endpoint creation needs them). */
  webhooks: WebhookSettings;
}
