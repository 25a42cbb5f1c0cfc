import { paymentIntentStatuses } from '../../domain/shared/values.ts';
import { Type } from 'typebox';
import { errorResponses } from './common.ts';

const IntentStatus = Type.Enum(paymentIntentStatuses, {
  description: "The payment intent's status after the outcome was handled",
});

export const paymentWebhookSchema = {
  tags: ['Integrations'],
  operationId: 'receivePaymentWebhook',
  summary: 'Receive a payment processor webhook',
  description:
    "The payment processor announces payment outcomes here. No API key: the body must carry the processor's " +
    'signature (the sandbox: `Sandbox-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">`, at ' +
    'most 5 minutes old), else 400 VALIDATION_FAILED. A succeeded payment confirms the bookings of its intent ' +
    '(a booking whose hold lapsed is confirmed if its places are still free, else refunded in full, as is a ' +
    'booking cancelled meanwhile) and marks the cart paid; a failed one fails its bookings and releases their ' +
    'places. Delivering the same event again, or a failure after a success, changes nothing. An event for an ' +
    'unknown intent is acknowledged and ignored.',
  security: [],
  response: {
    200: Type.Object(
      { received: Type.Boolean({ description: 'Always true: the event was verified and handled' }) },
      { description: 'The event was verified and handled' },
    ),
  },
};

export const stripeWebhookSchema = {
  tags: ['Integrations'],
  operationId: 'receiveStripeWebhook',
  summary: 'Receive a Stripe webhook',
  description:
    'Exists when the gateway takes cards through Stripe (STRIPE_SECRET_KEY). Stripe sends its events here; the ' +
    '`Stripe-Signature` header is verified with the SDK on the raw body against STRIPE_WEBHOOK_SECRET (a bad or ' +
    'stale signature is 400 VALIDATION_FAILED and changes nothing). `payment_intent.succeeded` confirms the ' +
    "intent's bookings (as the sandbox's success does); `payment_intent.payment_failed` keeps the hold so the " +
    'guest can try another card; `charge.refunded` and `refund.*` settle pending refunds. Repeated or ' +
    'out-of-order events change nothing more; events of unknown intents or other accounts are acknowledged and ignored.',
  security: [],
  response: paymentWebhookSchema.response,
};

export const paymentSettingsSchema = {
  tags: ['Carts & Checkout'],
  operationId: 'getPaymentSettings',
  summary: "The gateway's payment processor, for a browser",
  description:
    'What a booking page needs to take a card: the processor (`sandbox`: confirm with POST ' +
    "/v1/sandbox/payment_intents/confirm; `stripe`: mount Stripe's Payment Element with `stripePublishableKey` and " +
    'confirm the `paymentIntentSecret` checkout answered with Stripe.js). No API key: nothing here is secret.',
  security: [],
  response: {
    200: Type.Object(
      {
        processor: Type.String({ description: '`sandbox` or `stripe`' }),
        stripePublishableKey: Type.Union([Type.String(), Type.Null()], {
          description: "Stripe's publishable key (pk_...) with Stripe and STRIPE_PUBLISHABLE_KEY set; null otherwise",
        }),
      },
      { description: "The gateway's payment processor" },
    ),
  },
};

export const sandboxConfirmSchema = {
  tags: ['Carts & Checkout'],
  operationId: 'confirmSandboxPayment',
  summary: 'Settle a payment intent in the sandbox',
  description:
    'Development and tests only (404 unless the payment processor is the built-in sandbox). Plays the ' +
    "processor: signs a `succeeded` or `failed` event for the intent and delivers it through the webhook's own " +
    "code path. No API key: the intent's client secret (`paymentIntentSecret` from checkout) is the credential.",
  security: [],
  body: Type.Object(
    {
      paymentIntentSecret: Type.String({ minLength: 1, maxLength: 500, description: 'The client secret checkout returned' }),
      outcome: Type.Enum(['succeeded', 'failed'], { description: "What the guest's payment does" }),
    },
    { additionalProperties: false },
  ),
  response: {
    200: Type.Object({ paymentIntentStatus: IntentStatus }, { description: 'The outcome was delivered' }),
    ...errorResponses(404),
  },
};
