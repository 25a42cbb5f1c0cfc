import { DateTime } from 'luxon';

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
