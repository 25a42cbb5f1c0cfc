/**
 * Whether a booking may move to another session, as a pure function of what the transaction read:
 * only a confirmed booking, before its session starts, within the brand's reschedule policy (its notice
 * window before the old session's start, its maximum number of moves), to a different session.
 */
import type { BookingStatus } from '../shared/values.ts';

export interface RescheduleState {
  status: BookingStatus;
  fromSessionId: string;
  /** When the booking's current session starts (UTC). */
  fromStartsAt: string;
  toSessionId: string;
  reschedules: number;
  /** The brand's reschedule policy; null when it has none (no notice window, no limit). */
  policy: { allowedHoursBefore: number; maxReschedules: number } | null;
  now: Date;
}

export type RescheduleRefusal =
  | { code: 'SESSION_STARTED'; message: string }
  | { code: 'RESCHEDULE_NOT_ALLOWED'; rule: 'status' | 'notice' | 'limit' | 'same-session'; message: string; field?: string };

export function rescheduleRefusal(state: RescheduleState): RescheduleRefusal | null {
  if (state.status !== 'confirmed') {
    return {
      code: 'RESCHEDULE_NOT_ALLOWED',
      rule: 'status',
      message: `Only a confirmed booking can be moved; this one is ${state.status}`,
    };
  }
  const startsAt = Date.parse(state.fromStartsAt);
  if (startsAt <= state.now.getTime()) return { code: 'SESSION_STARTED', message: "The booking's session has already started" };
  if (state.toSessionId === state.fromSessionId) {
    return {
      code: 'RESCHEDULE_NOT_ALLOWED',
      rule: 'same-session',
      message: 'The booking is already on that session',
      field: 'sessionTime',
    };
  }
  const { policy } = state;
  if (policy && startsAt - state.now.getTime() < policy.allowedHoursBefore * 3_600_000) {
    return {
      code: 'RESCHEDULE_NOT_ALLOWED',
      rule: 'notice',
      message: `The brand's policy allows moves up to ${policy.allowedHoursBefore} hours before the session starts`,
    };
  }
  if (policy && state.reschedules >= policy.maxReschedules) {
    return {
      code: 'RESCHEDULE_NOT_ALLOWED',
      rule: 'limit',
      message: `The brand's policy allows ${policy.maxReschedules} move${policy.maxReschedules === 1 ? '' : 's'} per booking; this one has had them`,
    };
  }
  return null;
}
