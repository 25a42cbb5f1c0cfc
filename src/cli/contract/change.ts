/**
 * One change between two published contracts that a client may feel. BREAKING: a client written against
 * the older contract can fail on the newer one. DANGEROUS: it keeps working by the contract's letter, but
 * may meet what it never met before (a new enum value, a new union member, a changed default).
 */
export interface ContractChange {
  criticality: 'BREAKING' | 'DANGEROUS';
  /** What the change is about, as a CHANGELOG names it: `Query.bookings`, `GET /v1/bookings/{bookingId}`. */
  path: string;
  message: string;
}
