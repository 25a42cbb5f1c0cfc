import type { FastifyRequest } from 'fastify';
import type { Deps } from '../../domain/shared/deps.ts';
import {
  browserPaymentSettings,
  confirmSandboxPayment,
  receivePaymentWebhook,
  webhookSignerOf,
} from '../../domain/payments/processor-events.ts';
import type { PaymentOutcome } from '../../domain/payments/payments.ts';
import type { RestApp } from '../plugin.ts';
import { paymentSettingsSchema, paymentWebhookSchema, sandboxConfirmSchema, stripeWebhookSchema } from '../schemas/payments.ts';

/** Nothing here answers differently for these: the processor is acknowledged, the operator is told. */
function logOutcome(request: FastifyRequest, outcome: PaymentOutcome | null): void {
  if (!outcome) {
    request.log.warn('payment event for an unknown payment intent: acknowledged and ignored');
    return;
  }
  for (const failure of outcome.refundErrors) {
    request.log.error(
      { intentId: outcome.intentId, bookingId: failure.bookingId, code: failure.code },
      `automatic refund failed: ${failure.message}`,
    );
  }
}

/** Payment outcomes: the processor's webhook and, with the sandbox processor, its confirm operation. Public. */
export function paymentRoutes(app: RestApp, deps: Deps) {
  // Its own scope: the signature covers the body byte for byte, so it is kept as the raw string, unparsed.
  app.register(async (scope: RestApp) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'string' }, (request, body, done) => {
      request.rawBody = body as string;
      done(null, body);
    });
    scope.post('/v1/webhooks/payments', { schema: paymentWebhookSchema }, async (request) => {
      logOutcome(request, await receivePaymentWebhook(deps, request.rawBody ?? '', request.headers));
      return { received: true };
    });
    // The endpoint a Stripe dashboard names; the same verified path as the generic one.
    if (deps.payments.name === 'stripe') {
      scope.post('/v1/webhooks/stripe', { schema: stripeWebhookSchema }, async (request) => {
        logOutcome(request, await receivePaymentWebhook(deps, request.rawBody ?? '', request.headers));
        return { received: true };
      });
    }
  });

  app.get('/v1/payments/settings', { schema: paymentSettingsSchema }, async () => browserPaymentSettings(deps.payments));

  // The route exists only with the sandbox: elsewhere it is an unknown route (404).
  if (!webhookSignerOf(deps.payments)) return;
  app.post('/v1/sandbox/payment_intents/confirm', { schema: sandboxConfirmSchema }, async (request) => {
    const { paymentIntentStatus, outcome } = await confirmSandboxPayment(deps, request.body);
    logOutcome(request, outcome);
    return { paymentIntentStatus };
  });
}
