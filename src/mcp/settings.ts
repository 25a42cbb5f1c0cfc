/**
 * The MCP face's settings. `paymentPageUrl` (MCP_PAYMENT_PAGE_URL) is the page a traveller opens to pay
 * for places an assistant held: the brand's booking page, or a page of the brand's that hands the
 * payment intent's client secret to the processor's hosted form. The hold tool answers it with the cart
 * and the client secret in the URL's fragment (`#brandId=...&cartId=...&paymentIntentSecret=...`), which
 * browsers never send to a server nor in a Referer. The assistant passes the link on and never sees
 * card data: the traveller types it into the processor's form.
 */
import type { Config } from '../config.ts';

export interface McpSettings {
  paymentPageUrl: string | null;
}

export type McpConfig = Partial<Pick<Config, 'MCP_PAYMENT_PAGE_URL'>>;

export const mcpSettings = (config: McpConfig): McpSettings => ({ paymentPageUrl: config.MCP_PAYMENT_PAGE_URL ?? null });

/** The link a traveller opens to pay for a held cart; null without a configured page. */
export function paymentLink(settings: McpSettings, cart: { brandId: string; cartId: string; paymentIntentSecret: string }): string | null {
  if (!settings.paymentPageUrl) return null;
  const url = new URL(settings.paymentPageUrl);
  url.hash = new URLSearchParams(cart).toString();
  return url.toString();
}
