/**
 * How tools answer: JSON an assistant reads (also as `structuredContent`), money as minor units with the
 * amount written out in the brand's currency and the answer's language, and failures as tool errors
 * (`isError`) carrying the domain's code and the field concerned, so an assistant can correct its call.
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { ZodError } from 'zod';
import { type DomainError, type ErrorCode, type ErrorDetails } from '../domain/shared/errors.ts';
import { currencyExponent, fromDecimal } from '../domain/shared/money.ts';

export interface Money {
  /** Integer minor units of `currency` (cents for EUR, yen for JPY). */
  amountMinor: number;
  currency: string;
  /** The amount as the traveller reads it, e.g. "45,00 €" in Portuguese. */
  formatted: string;
}

/** `language`: a BCP 47 tag; one Intl does not know falls back to English rather than failing the answer. */
export function money(amountMinor: number, currency: string, language: string): Money {
  const exponent = currencyExponent(currency);
  const value = amountMinor / 10 ** exponent;
  let format: Intl.NumberFormat;
  try {
    format = new Intl.NumberFormat(language, {
      style: 'currency',
      currency,
      minimumFractionDigits: exponent,
      maximumFractionDigits: exponent,
    });
  } catch {
    format = new Intl.NumberFormat('en', { style: 'currency', currency, minimumFractionDigits: exponent, maximumFractionDigits: exponent });
  }
  return { amountMinor, currency, formatted: format.format(value) };
}

/** A decimal amount as the domain's views carry it (REST's shape), as Money. */
export const moneyOfDecimal = (amount: number, currency: string, language: string): Money =>
  money(fromDecimal(amount, currency, 'amount'), currency, language);

/** A session's local start with its zone, and the instant it is, for an assistant to state unambiguously. */
export interface LocalTime {
  /** `YYYY-MM-DDTHH:MM:SS`, the wall clock where the experience takes place. */
  localDateTime: string;
  /** IANA time zone of `localDateTime`. */
  timeZone: string;
}

export const localTime = (localDateTime: string, timeZone: string): LocalTime => ({ localDateTime, timeZone });

export function answer(value: Record<string, unknown>): CallToolResult {
  return { content: [{ type: 'text', text: JSON.stringify(value) }], structuredContent: value };
}

export interface ToolErrorBody {
  code: ErrorCode;
  message: string;
  /** The argument concerned, as a dotted path into the tool's arguments (`items.0.participants.1.priceTierName`). */
  field?: string;
  details?: ErrorDetails;
}

export function toolError(code: ErrorCode, message: string, details?: ErrorDetails): CallToolResult {
  const field = typeof details?.field === 'string' ? details.field : undefined;
  const error: ToolErrorBody = { code, message, ...(field ? { field } : {}), ...(details ? { details } : {}) };
  return { isError: true, content: [{ type: 'text', text: JSON.stringify({ error }) }], structuredContent: { error } };
}

export const domainToolError = (error: DomainError): CallToolResult => toolError(error.code, error.message, error.details);

/** The first problem zod found, as the REST face names it: VALIDATION_FAILED on a dotted field. */
export function invalidArguments(error: ZodError): CallToolResult {
  const issue = error.issues[0]!;
  const path = issue.path.map(String);
  if (issue.code === 'unrecognized_keys' && issue.keys[0]) path.push(issue.keys[0]);
  const field = path.join('.');
  const message = issue.code === 'unrecognized_keys' ? `${field} is not a known argument` : `${field || 'arguments'}: ${issue.message}`;
  return toolError('VALIDATION_FAILED', message, field ? { field } : undefined);
}
