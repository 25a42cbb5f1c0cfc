/**
 * Limits of live updates (GraphQL subscriptions over WebSocket and Server-Sent Events). The configuration
 * names them (src/config.ts, docs/operations.md); `buildApp` callers that pass no full config get these.
 */
import type { Config } from '../../config.ts';
import { liveDefaults } from './defaults.ts';

type LiveConfigKey =
  'LIVE_MAX_SUBSCRIPTIONS_PER_CONNECTION' | 'LIVE_MAX_CONNECTIONS_PER_KEY' | 'LIVE_KEEP_ALIVE_MS' | 'LIVE_MAX_BUFFERED_BYTES';

/** What live updates read from the configuration. */
export type LiveConfig = Partial<Pick<Config, LiveConfigKey>>;

export interface LiveSettings {
  maxSubscriptionsPerConnection: number;
  maxConnectionsPerKey: number;
  keepAliveMs: number;
  maxBufferedBytes: number;
}

export function liveSettings(config: LiveConfig): LiveSettings {
  return {
    maxSubscriptionsPerConnection: config.LIVE_MAX_SUBSCRIPTIONS_PER_CONNECTION ?? liveDefaults.maxSubscriptionsPerConnection,
    maxConnectionsPerKey: config.LIVE_MAX_CONNECTIONS_PER_KEY ?? liveDefaults.maxConnectionsPerKey,
    keepAliveMs: config.LIVE_KEEP_ALIVE_MS ?? liveDefaults.keepAliveMs,
    maxBufferedBytes: config.LIVE_MAX_BUFFERED_BYTES ?? liveDefaults.maxBufferedBytes,
  };
}
