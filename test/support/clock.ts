/**
 * The instant checkout tests run at: before every session they book (December 2026), so they mean the
 * same on whatever day the suite runs.
 */
export const CHECKOUT_NOW = '2026-11-25T12:00:00.000Z';
