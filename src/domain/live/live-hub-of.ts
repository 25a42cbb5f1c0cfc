import type { Deps } from '../shared/deps.ts';
import { DomainError } from '../shared/errors.ts';
import type { LiveHub } from './hub.ts';

/** The gateway's live hub; SERVICE_UNAVAILABLE when this process runs none (a tool, or an app not started yet). */
export function liveHubOf(deps: Deps): LiveHub {
  if (!deps.live) throw new DomainError('SERVICE_UNAVAILABLE', 'Live updates are not running on this gateway; retry on another');
  return deps.live;
}
