import { DateTime } from 'luxon';
import { invalid } from './errors.ts';

/**
 * Session times are local date-times in the experience's IANA zone. Luxon does the zone maths; a local
 * time that falls in a DST gap moves forward (02:30 on a spring-forward night is 03:30), and one that
 * happens twice (autumn) resolves to the earlier instant.
 */
export function localToUtc(startLocal: string, zone: string): string {
  const local = DateTime.fromISO(startLocal, { zone });
  if (!local.isValid) throw new RangeError(`Invalid local date-time ${startLocal} in ${zone}: ${local.invalidExplanation}`);
  return local.toUTC().toISO({ suppressMilliseconds: false })!;
}

const LOCAL_DATE = /^\d{4}-\d{2}-\d{2}$/;
export const DAY_MS = 86_400_000;

/**
 * A local date `YYYY-MM-DD` (a range's bound, a schedule's day) as the instant its day starts at in UTC, in
 * ms: plain day arithmetic, no zone, so no Luxon object. VALIDATION_FAILED on `field` for anything else.
 */
export function localDateStart(value: unknown, field: string): number {
  if (typeof value === 'string' && LOCAL_DATE.test(value)) {
    const [year, month, day] = [Number(value.slice(0, 4)), Number(value.slice(5, 7)), Number(value.slice(8, 10))];
    // setUTCFullYear, not Date.UTC, which reads years 0 to 99 as 1900 to 1999; a day the month does not have rolls over.
    const date = new Date(0);
    date.setUTCFullYear(year, month - 1, day);
    if (date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day) return date.getTime();
  }
  throw invalid(field, `${field} must be a date YYYY-MM-DD`);
}

/** The local date `YYYY-MM-DD` after the day starting at `dayStart` (`localDateStart`). */
export const dayAfter = (dayStart: number): string => new Date(dayStart + DAY_MS).toISOString().slice(0, 10);
