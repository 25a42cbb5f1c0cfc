/**
 * The join-waitlist request (spec operation 6) as both faces hand it to the domain, and its shape
 * rules. REST's JSON Schema states the same patterns and limits (it imports them from here), so
 * malformed input is refused alike: VALIDATION_FAILED naming the field.
 */
import { DateTime } from 'luxon';
import { checkPerson, MAX_PARTICIPANTS, maxLength, type CheckoutParticipantInput, type PurchaserInput } from '../checkout/input.ts';
import { invalid } from '../shared/errors.ts';

/** `YYYY-MM-DD`, month 01-12, day 01-31 (the spec's pattern); the date must also exist. */
export const SESSION_DATE_PATTERN = '^[0-9]{4}-(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])$';
/** `HH:MM` or `HH:MM:SS`, 24-hour clock. */
export const SESSION_TIME_PATTERN = '^([01][0-9]|2[0-3]):[0-5][0-9](:[0-5][0-9])?$';
/** Longest session, in minutes (the same bound as checkout's `sessionDuration`). */
export const MAX_DURATION_MINUTES = 100_000;

export interface JoinWaitlistBody {
  sessionStartDate: string;
  sessionStartTime: string;
  /** Minutes; must equal the session's. */
  sessionDuration: number;
  /** Who receives the offer: `emailAddress` is required here. */
  purchaser: PurchaserInput;
  participants: readonly CheckoutParticipantInput[];
}

export interface JoinWaitlistInput extends JoinWaitlistBody {
  brandId: string;
  waitlistId: string;
}

function checkSessionFields(input: JoinWaitlistBody): void {
  if (!new RegExp(SESSION_DATE_PATTERN).test(input.sessionStartDate)) {
    throw invalid('sessionStartDate', 'sessionStartDate must be a date YYYY-MM-DD (month 01-12, day 01-31)');
  }
  if (!DateTime.fromISO(input.sessionStartDate, { zone: 'UTC' }).isValid) {
    throw invalid('sessionStartDate', `sessionStartDate ${input.sessionStartDate} is not a date of the calendar`);
  }
  if (!new RegExp(SESSION_TIME_PATTERN).test(input.sessionStartTime)) {
    throw invalid('sessionStartTime', 'sessionStartTime must be HH:MM or HH:MM:SS on a 24-hour clock (00:00 to 23:59:59)');
  }
  const duration = input.sessionDuration;
  if (!Number.isInteger(duration) || duration < 1 || duration > MAX_DURATION_MINUTES) {
    throw invalid('sessionDuration', `sessionDuration must be a whole number of minutes from 1 to ${MAX_DURATION_MINUTES}`);
  }
}

/** The request's shape; business rules (session, tiers, answers, places) come after. */
export function checkJoinShape(input: JoinWaitlistBody): void {
  checkSessionFields(input);
  checkPerson(input.purchaser, 'purchaser');
  const email = input.purchaser.emailAddress;
  if (email == null || email.trim() === '') {
    throw invalid('purchaser.emailAddress', 'purchaser.emailAddress is required: the offer of freed places is sent there');
  }
  const count = input.participants.length;
  if (count < 1 || count > MAX_PARTICIPANTS) throw invalid('participants', `participants must have 1 to ${MAX_PARTICIPANTS} entries`);
  input.participants.forEach((p, j) => {
    checkPerson(p, `participants.${j}`);
    if (p.priceTierName == null || p.priceTierName.trim() === '' || p.priceTierName.length > maxLength.name) {
      throw invalid(
        `participants.${j}.priceTierName`,
        `participants.${j}.priceTierName must be a price tier name of 1 to ${maxLength.name} characters`,
      );
    }
  });
}

/** The session's local start as stored, `YYYY-MM-DDTHH:MM:SS`. */
export const localStart = (input: Pick<JoinWaitlistBody, 'sessionStartDate' | 'sessionStartTime'>) =>
  `${input.sessionStartDate}T${input.sessionStartTime.length === 5 ? `${input.sessionStartTime}:00` : input.sessionStartTime}`;
