/**
 * `npm run openapi:examples`: records the examples of the OpenAPI document (src/rest/openapi/examples.json)
 * from the demo data. It loads the demo into an in-memory database, walks every REST operation the way a
 * partner would (read the catalogue, check out, pay in the sandbox, read, reschedule and cancel the booking,
 * schedule, change and cancel sessions, join and leave a waitlist, manage a webhook endpoint, create and
 * change a host, create and publish a listing, change the brand's settings) and keeps each request body and answer, with long
 * lists cut to two items. Run it after changing an answer's shape; the OpenAPI test says when.
 */
import { randomUUID } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { format, resolveConfig } from 'prettier';
import { buildApp } from '../app.ts';
import { loadConfig } from '../config.ts';
import { connect } from '../db/connect.ts';
import { demoIds, demoSoldOutSession } from '../db/demo/index.ts';
import { questionIds } from '../db/demo/questions.ts';
import type { RecordedExamples } from '../rest/openapi/examples.ts';

const target = fileURLToPath(new URL('../rest/openapi/examples.json', import.meta.url));
const LISBON = 'sk_test_lisbon_demo';
const ORGANIZATION = 'sk_test_harbor_org_demo';
const { brands, experiences } = demoIds;

/** Lists cut to their first two items, so the document stays readable. */
function trimmed(value: unknown): unknown {
  if (Array.isArray(value)) return value.slice(0, 2).map(trimmed);
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, trimmed(v)]));
  return value;
}

async function record(): Promise<Record<string, RecordedExamples>> {
  const { database, loadDemoDataIfEmpty } = await connect(':memory:');
  await loadDemoDataIfEmpty();
  const app = await buildApp({ db: database, config: { ...loadConfig({}), LOG_LEVEL: 'silent' } });
  const examples: Record<string, RecordedExamples> = {};

  /** A read that is not itself an example. */
  const read = async (url: string) => (await app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${LISBON}` } })).json();

  async function call(operationId: string, method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', url: string, body?: object, key = LISBON) {
    const res = await app.inject({ method, url, headers: { authorization: `Bearer ${key}` }, ...(body ? { payload: body } : {}) });
    if (res.statusCode >= 300) throw new Error(`${operationId} answered ${res.statusCode}: ${res.body}`);
    const answer = res.json();
    const own = (examples[operationId] ??= { responses: {} });
    if (body) own.request = trimmed(body);
    own.responses[res.statusCode] = trimmed(answer);
    return answer;
  }

  try {
    const lisbon = `/v1/brands/${brands.lisbon}`;
    const walk = experiences.tram28PhotoWalk;
    await call('getOrganization', 'GET', `/v1/organizations/${demoIds.organization}`, undefined, ORGANIZATION);
    await call('getBrandSettings', 'GET', `${lisbon}/settings?include=cancellationPolicy,reschedulePolicy`);
    await call('listHosts', 'GET', `${lisbon}/hosts`);
    const host = await call('createHost', 'POST', `${lisbon}/hosts`, {
      firstName: 'Inês',
      lastName: 'Carvalho',
      emailAddress: 'ines.carvalho@harbor-lisbon.pt',
      description: 'Photographer and Alfama local; leads the dawn walks.',
      allowOverlappingBookings: false,
      profilePicture: { uri: { original: 'https://images.harbor-lisbon.pt/hosts/ines.jpg' }, altText: 'Inês with her camera' },
    });
    await call('updateHost', 'PATCH', `${lisbon}/hosts/${host.data.id}`, { description: 'Photographer; leads the dawn and dusk walks.' });
    await call('getHost', 'GET', `${lisbon}/hosts/${host.data.id}`);
    const coupon = await call('createCoupon', 'POST', `${lisbon}/coupons`, {
      code: 'ALFAMA10',
      percentOff: 10,
      validFrom: '2026-12-01',
      validUntil: '2027-03-31',
      active: true,
    });
    await call('updateCoupon', 'PATCH', `${lisbon}/coupons/${coupon.data.id}`, { active: false });
    await call('getCoupon', 'GET', `${lisbon}/coupons/${coupon.data.id}`);
    await call('listCoupons', 'GET', `${lisbon}/coupons`);
    const gift = await call('issueCreditCode', 'POST', `${lisbon}/credit-codes`, { code: 'GIFT-LISBOA-50', balanceMinor: 5000 });
    await call('updateCreditCode', 'PATCH', `${lisbon}/credit-codes/${gift.data.id}`, { balanceMinor: 7500 });
    await call('getCreditCode', 'GET', `${lisbon}/credit-codes/${gift.data.id}`);
    await call('listCreditCodes', 'GET', `${lisbon}/credit-codes`);
    const experience = await call('getExperience', 'GET', `${lisbon}/experiences/${walk}`);
    const { id: _id, ...copy } = experience;
    const written = await call('createExperience', 'POST', `${lisbon}/experiences`, { ...copy, slug: `${copy.slug}-private` });
    await call('updateExperience', 'PATCH', `${lisbon}/experiences/${written.id}`, {
      title: `${copy.title} (private)`,
      priceTiers: [{ name: 'Adult', price: 60 }],
    });
    await call('archiveExperience', 'POST', `${lisbon}/experiences/${written.id}/archive`);
    await call('unarchiveExperience', 'POST', `${lisbon}/experiences/${written.id}/unarchive`);
    await call('listCustomQuestions', 'GET', `${lisbon}/experiences/${experiences.tagusSunsetSail}/custom-questions`);
    await call('getFeaturedListings', 'GET', '/v3/listings/featured?locale=pt');
    await call('listExperienceReviews', 'GET', `/v1/experiences/${walk}/reviews?page=1&limit=2`);

    // Sessions a few days ahead: bookable, and far enough for the brand's reschedule notice.
    const day = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
    const sessions = (await call('listAvailability', 'GET', `${lisbon}/experiences/${walk}/availability?from=${day(3)}&to=${day(5)}`)).data;
    const [first, later] = [sessions[0], sessions[1]];
    const tier = experience.priceTiers[0].name;

    const cartId = randomUUID();
    const item = {
      experienceId: walk,
      sessionTime: first.startDateTime,
      couponCode: 'LISBON10',
      participants: [
        { firstName: 'Rita', lastName: 'Moreira', emailAddress: 'rita.moreira@example.com', priceTierName: tier },
        { firstName: 'Tomás', lastName: 'Moreira', priceTierName: tier },
      ],
    };
    const purchaser = { firstName: 'Rita', lastName: 'Moreira', emailAddress: 'rita.moreira@example.com', phoneNumber: '+351912345678' };
    const checkoutUrl = `${lisbon}/carts/${cartId}/payment_intents`;
    await call('createPaymentIntent', 'POST', checkoutUrl, { data: [item], purchaser, getOnlyTotalNetAmount: true });
    const checkout = await call('createPaymentIntent', 'POST', checkoutUrl, { data: [item], purchaser });
    await call('getPaymentSettings', 'GET', '/v1/payments/settings');
    await call('confirmSandboxPayment', 'POST', '/v1/sandbox/payment_intents/confirm', {
      paymentIntentSecret: checkout.paymentIntentSecret,
      outcome: 'succeeded',
    });
    const bookingId = checkout.bookings[0].id;
    const booking = await call('getBooking', 'GET', `/v1/bookings/${bookingId}`);
    await call('getCart', 'GET', `${lisbon}/carts/${cartId}`);
    await call('listBookings', 'GET', `${lisbon}/bookings?status=confirmed&limit=1`);
    await call('rescheduleBooking', 'POST', `/v1/bookings/${bookingId}/reschedule`, { sessionTime: later.startDateTime });
    await call('cancelBookings', 'POST', '/v1/bookings/cancel', {
      bookings: [{ bookingId, participants: [booking.participants[1].id], refundAmount: booking.amount / 2 }],
    });

    // The brand's schedule: sessions two months ahead, one changed, one cancelled with a paid booking on it.
    const scheduled = await call('scheduleSessions', 'POST', `${lisbon}/experiences/${walk}/sessions`, {
      schedule: { rrule: 'FREQ=WEEKLY;BYDAY=TU,TH', from: day(60), until: day(73), startTimes: ['08:15'], exceptions: [day(61)] },
      capacity: 8,
    });
    const [toChange, toCancel] = [scheduled.data[0], scheduled.data[1]];
    await call('updateSession', 'PATCH', `${lisbon}/sessions/${toChange.id}`, { capacity: 10 });
    const rainCart = `${lisbon}/carts/${randomUUID()}/payment_intents`;
    const rainCheckout = (
      await app.inject({
        method: 'POST',
        url: rainCart,
        headers: { authorization: `Bearer ${LISBON}` },
        payload: { data: [{ ...item, couponCode: undefined, sessionTime: toCancel.startDateTime }], purchaser },
      })
    ).json();
    await app.inject({
      method: 'POST',
      url: '/v1/sandbox/payment_intents/confirm',
      payload: { paymentIntentSecret: rainCheckout.paymentIntentSecret, outcome: 'succeeded' },
    });
    await call('cancelSession', 'POST', `${lisbon}/sessions/${toCancel.id}/cancel`, { reason: 'Storm warning: the walk cannot run' });

    const soldOut = demoSoldOutSession();
    const sailUrl = `${lisbon}/experiences/${soldOut.experienceId}`;
    const sailDay = soldOut.startDateTime.slice(0, 10);
    const sailSession = (await read(`${sailUrl}/availability?from=${sailDay}&to=${sailDay}`)).data.find(
      (session: { startDateTime: string }) => session.startDateTime === soldOut.startDateTime,
    );
    const sailTier = (await read(sailUrl)).priceTiers[0].name;
    const { question, option } = questionIds('lisbon');
    const entries = `${lisbon}/waitlists/${sailSession.waitlistId}/entries`;
    const entry = await call('joinWaitlist', 'POST', entries, {
      sessionStartDate: sailDay,
      sessionStartTime: soldOut.startDateTime.slice(11, 16),
      sessionDuration: sailSession.duration,
      purchaser: {
        firstName: 'Joana',
        lastName: 'Reis',
        emailAddress: 'joana.reis@example.com',
        customQuestionResponses: [
          { questionId: question('day-phone'), answer: [{ value: '+351912000111' }] },
          { questionId: question('occasion'), answer: [{ key: option('occasion', 'Birthday') }] },
          { questionId: question('safety-rules'), answer: [{ value: 'true' }] },
        ],
      },
      participants: [
        {
          firstName: 'Joana',
          lastName: 'Reis',
          priceTierName: sailTier,
          customQuestionResponses: [
            { questionId: question('passenger-name'), answer: [{ value: 'Joana Reis' }] },
            { questionId: question('can-swim'), answer: [{ key: option('can-swim', 'Yes') }] },
          ],
        },
      ],
    });
    await call('listWaitlistEntries', 'GET', `${entries}?sessionStartDateTime=${soldOut.startDateTime}&status=waiting`);
    await call('leaveWaitlist', 'DELETE', `${entries}/${entry.id}`);

    const created = await call('createWebhookEndpoint', 'POST', `${lisbon}/webhooks`, {
      url: 'https://hooks.harbor-lisbon.pt/tessera',
      events: ['booking.confirmed', 'booking.cancelled'],
    });
    await call('listWebhookEndpoints', 'GET', `${lisbon}/webhooks`);
    await call('updateWebhookEndpoint', 'PATCH', `${lisbon}/webhooks/${created.endpoint.id}`, { status: 'disabled' });
    await call('deleteWebhookEndpoint', 'DELETE', `${lisbon}/webhooks/${created.endpoint.id}`);
    const listing = await call('createListing', 'POST', `${lisbon}/listings`, {
      experienceId: walk,
      title: 'Tram 28 Photo Walk at Dawn',
      summary: 'Alfama before the crowds, camera in hand',
      advertisedPrice: 38,
      startingPrice: 35,
      isUnlisted: true,
    });
    const listingUrl = `${lisbon}/listings/${listing.data.id}`;
    await call('updateListingDraft', 'PATCH', listingUrl, { title: 'Tram 28 Photo Walk at Sunrise', advertisedPrice: 40 });
    await call('publishListing', 'POST', `${listingUrl}/publish`);
    await call('getListing', 'GET', listingUrl);
    await call('updateBrandSettings', 'PATCH', `${lisbon}/settings`, { designElement: { buttonColor: '#0B5563' } });
    const catalogue = await call('exportCatalog', 'GET', `${lisbon}/catalog`);
    await call('importCatalog', 'PUT', `${lisbon}/catalog?dryRun=true`, {
      ...catalogue,
      experiences: catalogue.experiences.slice(0, 1).map((e: { title: string }) => ({ ...e, title: `${e.title} (new title)` })),
      listings: [],
      sessions: catalogue.sessions.slice(0, 1),
    });
    await call('listEvents', 'GET', `${lisbon}/events?types=booking.confirmed&limit=2`);
    // The processor's own webhook: its body is the processor's event; the only answer is the acknowledgement.
    examples.receivePaymentWebhook = { responses: { 200: { received: true } } };
    return examples;
  } finally {
    await app.close();
    await database.close();
  }
}

const examples = await record();
const text = await format(JSON.stringify(examples), { ...(await resolveConfig(target)), filepath: target });
await writeFile(target, text);
process.stdout.write(`Wrote ${Object.keys(examples).length} operations' examples to ${target}\n`);
