/**
 * What a brand asks `scheduleSessions` for, read into the local starts to create: one-off sessions by
 * their local start, or a recurring schedule (an RFC 5545 RRULE for the dates, local start times for
 * each date, dates left out). Pure functions of the input, the experience's zone and the clock, checked
 * here so both faces refuse the same input the same way, each error naming its field.
 *
 * Times stay local: the rule is expanded over floating dates (the `rrule` library's dates read in UTC,
 * where no day is 23 or 25 hours long), and each date is joined with each start time in the experience's
 * zone, so 10:00 is 10:00 on both sides of a daylight-saving change. A start time the clocks skip on a
 * spring-forward day (01:30 in Lisbon on 2027-03-28) is refused, naming the time and the date: the brand
 * leaves the date out (`exceptions`) or picks another time; nothing is moved silently.
 */
import * as rruleModule from 'rrule';
import { DateTime } from 'luxon';
import { DomainError, invalid } from '../shared/errors.ts';
import { localDateStart, localToUtc } from '../shared/local-time.ts';
import { normalizeSessionTime } from './sessions.ts';

// rrule ships CommonJS: under Node's ESM loader its named exports sit on the default export.
const { RRule, rrulestr } = (rruleModule as unknown as { default?: typeof rruleModule }).default ?? rruleModule;

/** The most sessions one request may create (the schedule is cut in requests of at most this many). */
export const MAX_SESSIONS_PER_REQUEST = 500;
/** Start times per day of a schedule. */
export const MAX_START_TIMES = 24;
/** A session's places, and its length in minutes. */
export const MAX_SESSION_CAPACITY = 10_000;
export const MAX_SESSION_MINUTES = 24 * 60;

/** One session to create: its local start (`YYYY-MM-DDTHH:MM:SS`), UTC start, length and places. */
export interface PlannedSession {
  startLocal: string;
  startsAt: string;
  durationMinutes: number;
  capacity: number;
}

const LOCAL_TIME = /^([01]\d|2[0-3]):([0-5]\d)$/;
const SESSION_FIELDS = new Set(['startDateTime', 'capacity', 'duration']);
const SCHEDULE_FIELDS = new Set(['rrule', 'from', 'until', 'startTimes', 'exceptions']);
const BODY_FIELDS = new Set(['sessions', 'schedule', 'capacity', 'duration']);
/** Rule parts that would set times or the start: the schedule's own fields say those. */
const TIME_PARTS = /(^|;)\s*(DTSTART|BYHOUR|BYMINUTE|BYSECOND)\b/i;
const DATE_FREQUENCIES = new Set([RRule.YEARLY, RRule.MONTHLY, RRule.WEEKLY, RRule.DAILY]);

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const given = (value: unknown) => value !== undefined && value !== null;

function knownFields(value: Record<string, unknown>, known: Set<string>, field: string): void {
  const stranger = Object.keys(value).find((key) => !known.has(key));
  if (stranger !== undefined)
    throw invalid(field ? `${field}.${stranger}` : stranger, `${field ? `${field}.` : ''}${stranger} is not a known field`);
}

function integerIn(value: unknown, min: number, max: number, field: string): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
    throw invalid(field, `${field} must be a whole number from ${min} to ${max}`);
  }
  return value;
}

function localDate(value: unknown, field: string): DateTime {
  return DateTime.fromMillis(localDateStart(value, field), { zone: 'UTC' });
}

function tooMany(count: number, field: string): DomainError {
  return new DomainError(
    'SCHEDULE_TOO_LARGE',
    `${field} would make ${count > MAX_SESSIONS_PER_REQUEST ? `more than ${MAX_SESSIONS_PER_REQUEST}` : count} sessions; one request makes at most ${MAX_SESSIONS_PER_REQUEST} (send the rest in another)`,
    { field, limit: MAX_SESSIONS_PER_REQUEST },
  );
}

interface Defaults {
  capacity: number | null;
  durationMinutes: number;
}

/**
 * The sessions the body asks for, by local start, in the experience's zone `timezone`. `now`: a session
 * starting at or before it is refused (it could never be sold). Duplicate starts in one request are refused.
 */
export function planSessions(body: unknown, timezone: string, defaultMinutes: number, now: Date): PlannedSession[] {
  if (!isObject(body)) throw invalid('body', 'The body must be an object with `sessions` or `schedule`');
  knownFields(body, BODY_FIELDS, '');
  const defaults: Defaults = {
    capacity: given(body.capacity) ? integerIn(body.capacity, 1, MAX_SESSION_CAPACITY, 'capacity') : null,
    durationMinutes: given(body.duration) ? integerIn(body.duration, 1, MAX_SESSION_MINUTES, 'duration') : defaultMinutes,
  };
  // Each part is read (and a wrong field in it named) before the two are refused together.
  const oneOff = given(body.sessions) ? oneOffSessions(body.sessions, timezone, defaults) : null;
  const fromSchedule = given(body.schedule) ? scheduled(body.schedule, timezone, defaults) : null;
  if ((oneOff === null) === (fromSchedule === null)) {
    throw invalid(oneOff ? 'schedule' : 'sessions', 'Send either `sessions` (one-off sessions) or `schedule`, not both');
  }
  const planned = (oneOff ?? fromSchedule)!;
  const past = planned.findIndex((s) => Date.parse(s.startsAt) <= now.getTime());
  if (past >= 0) {
    const field = given(body.sessions) ? `sessions.${past}.startDateTime` : 'schedule.from';
    throw invalid(field, `${field}: the session at ${planned[past]!.startLocal} (${timezone}) would start in the past`);
  }
  return planned;
}

function oneOffSessions(value: unknown, timezone: string, defaults: Defaults): PlannedSession[] {
  if (!Array.isArray(value) || value.length === 0) throw invalid('sessions', 'sessions must be a non-empty array');
  if (value.length > MAX_SESSIONS_PER_REQUEST) throw tooMany(value.length, 'sessions');
  const seen = new Map<string, number>();
  return value.map((raw, index) => {
    const field = `sessions.${index}`;
    if (!isObject(raw)) throw invalid(field, `${field} must be an object`);
    knownFields(raw, SESSION_FIELDS, field);
    if (typeof raw.startDateTime !== 'string' || raw.startDateTime.length > 32) {
      throw invalid(`${field}.startDateTime`, `${field}.startDateTime must be a local date-time YYYY-MM-DDTHH:MM`);
    }
    const startLocal = normalizeSessionTime(raw.startDateTime, timezone, `${field}.startDateTime`);
    const twin = seen.get(startLocal);
    if (twin !== undefined) throw invalid(`${field}.startDateTime`, `${field}.startDateTime repeats sessions.${twin}.startDateTime`);
    seen.set(startLocal, index);
    const capacity = given(raw.capacity) ? integerIn(raw.capacity, 1, MAX_SESSION_CAPACITY, `${field}.capacity`) : defaults.capacity;
    if (capacity === null) throw invalid(`${field}.capacity`, `${field}.capacity is required (or give capacity for every session)`);
    return {
      startLocal,
      startsAt: localToUtc(startLocal, timezone),
      durationMinutes: given(raw.duration)
        ? integerIn(raw.duration, 1, MAX_SESSION_MINUTES, `${field}.duration`)
        : defaults.durationMinutes,
      capacity,
    };
  });
}

function startTimes(value: unknown): string[] {
  const field = 'schedule.startTimes';
  if (!Array.isArray(value) || value.length === 0 || value.length > MAX_START_TIMES) {
    throw invalid(field, `${field} must list 1 to ${MAX_START_TIMES} local times HH:MM`);
  }
  return value.map((time, index) => {
    if (typeof time !== 'string' || !LOCAL_TIME.test(time))
      throw invalid(`${field}.${index}`, `${field}.${index} must be a local time HH:MM`);
    if (value.indexOf(time) !== index) throw invalid(`${field}.${index}`, `${field}.${index} repeats ${time}`);
    return time;
  });
}

/** The rule's dates in [from, until] (floating: read in UTC), at most `limit` + 1 of them. */
function ruleDates(rule: string, from: DateTime, until: DateTime, limit: number): string[] {
  const field = 'schedule.rrule';
  const text = rule.replace(/^RRULE:/i, '');
  if (text.length === 0 || text.length > 500 || /[\r\n]/.test(text) || TIME_PARTS.test(text)) {
    throw invalid(field, `${field} must be one RRULE (RFC 5545) without DTSTART, BYHOUR, BYMINUTE or BYSECOND: the schedule gives those`);
  }
  let parsed: InstanceType<typeof RRule>;
  try {
    parsed = rrulestr(`RRULE:${text}`, { dtstart: from.toJSDate() }) as InstanceType<typeof RRule>;
  } catch (error) {
    throw invalid(field, `${field} is not a valid RRULE: ${error instanceof Error ? error.message : 'unreadable'}`);
  }
  if (!(parsed instanceof RRule) || !DATE_FREQUENCIES.has(parsed.options.freq)) {
    throw invalid(field, `${field} must repeat by dates: FREQ=DAILY, WEEKLY, MONTHLY or YEARLY`);
  }
  const dates = parsed.between(from.toJSDate(), until.toJSDate(), true, (_date, index) => index <= limit);
  return dates.map((date) => date.toISOString().slice(0, 10));
}

function scheduled(value: unknown, timezone: string, defaults: Defaults): PlannedSession[] {
  if (!isObject(value)) throw invalid('schedule', 'schedule must be an object');
  knownFields(value, SCHEDULE_FIELDS, 'schedule');
  if (typeof value.rrule !== 'string') throw invalid('schedule.rrule', 'schedule.rrule must be an RRULE such as FREQ=WEEKLY;BYDAY=TU,TH');
  const from = localDate(value.from, 'schedule.from');
  const until = localDate(value.until, 'schedule.until');
  if (until < from) throw invalid('schedule.until', 'schedule.until must be on or after schedule.from');
  const times = startTimes(value.startTimes);
  const exceptions = new Set<string>();
  if (given(value.exceptions)) {
    if (!Array.isArray(value.exceptions) || value.exceptions.length > 1000) {
      throw invalid('schedule.exceptions', 'schedule.exceptions must be an array of dates YYYY-MM-DD');
    }
    value.exceptions.forEach((date, index) => exceptions.add(localDate(date, `schedule.exceptions.${index}`).toISODate()!));
  }
  if (defaults.capacity === null) throw invalid('capacity', 'capacity is required with a schedule');
  const limit = Math.floor(MAX_SESSIONS_PER_REQUEST / times.length);
  const dates = ruleDates(value.rrule, from, until, limit + exceptions.size).filter((date) => !exceptions.has(date));
  if (dates.length * times.length > MAX_SESSIONS_PER_REQUEST) throw tooMany(dates.length * times.length, 'schedule');
  if (dates.length === 0) throw invalid('schedule', 'The schedule makes no session: no date of the rule falls between from and until');
  return dates.flatMap((date) =>
    times.map((time, index) => {
      const startLocal = normalizeSessionTime(`${date}T${time}`, timezone, `schedule.startTimes.${index}`);
      return {
        startLocal,
        startsAt: localToUtc(startLocal, timezone),
        durationMinutes: defaults.durationMinutes,
        capacity: defaults.capacity!,
      };
    }),
  );
}
