/** Booking events of checkout, holds and payment outcomes: exactly the expected events, in order, with the booking as the API shows it. */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { EVENTS_NOW, HOLD_TTL, eventsWorld } from '../../support/events-world.ts';
import { inTurn } from '../../../fixtures/factories/in-turn.ts';
import { assignQuestion, createExperience, createQuestion } from '../../../fixtures/factories/catalog.ts';
import { guest } from '../../support/checkout.ts';

const w = await eventsWorld();
const { clock, payments } = w;
const at = (seconds: number) => new Date(new Date(EVENTS_NOW).getTime() + seconds * 1000);
const statuses = async (bookingId: string) => (await w.eventsOf(bookingId)).map((e) => [e.type, e.payload.status]);

describe('checkout', () => {
  it('records booking.created per booking, in cart order, each the booking as GET /v1/bookings/{id} shows it', async () => {
    clock.now = at(0);
    const { res, ids } = await w.checkout([w.item(await w.session(), 2), w.item(await w.session())]);
    expect(res.status).toBe(201);
    expect(ids).toHaveLength(2);
    const [first, second] = await inTurn(ids, (id) => w.eventsOf(id));
    expect(first!.map((e) => e.type)).toEqual(['booking.created']);
    expect(second!.map((e) => e.type)).toEqual(['booking.created']);
    expect(second![0]!.sequence).toBe(first![0]!.sequence + 1);
    expect(first![0]).toMatchObject({ resourceId: ids[0], createdAt: EVENTS_NOW, id: expect.stringMatching(/^[0-9a-f-]{36}$/) });
    expect(first![0]!.payload).toEqual(await w.view(ids[0]!));
    expect(first![0]!.payload).toMatchObject({ status: 'processing', amount: 111.93, amountRefunded: 0 });
    expect(first![0]!.payload).not.toHaveProperty('brandId');
    // The feed carries the whole nested booking, as webhooks will.
    const feed = await w.t().rest('GET', `/v1/brands/${w.brand.id}/events?types=booking.created`, { key: w.key });
    expect(feed.body.data.find((e: any) => e.data.id === ids[0])).toEqual({
      id: first![0]!.id,
      type: 'booking.created',
      createdAt: EVENTS_NOW,
      data: await w.view(ids[0]!),
    });
  });

  it('booking.created of a booking with answers (purchaser and guests), contact details and notes is the booking as GET shows it', async () => {
    const quiz = (await createExperience(w.db, w.brand.id, { title: 'Quiz Sail' })).experience;
    const diet = await createQuestion(w.db, w.brand.id, {
      prompt: 'Diet',
      fieldType: 'single_select',
      options: [{ key: 'veg', value: 'Vegetarian' }],
    });
    const remarks = await createQuestion(w.db, w.brand.id, { prompt: 'Remarks', fieldType: 'textarea' });
    await assignQuestion(w.db, quiz.id, diet.id, { order: 1 });
    await assignQuestion(w.db, quiz.id, remarks.id, { order: 2, scope: 'purchaser' });
    const s = await w.session(10, quiz);
    const cartId = randomUUID();
    const answer = (key: string) => ({ customQuestionResponses: [{ questionId: diet.id, answer: [{ key }] }] });
    const res = await w.t().rest('POST', `/v1/brands/${w.brand.id}/carts/${cartId}/payment_intents`, {
      key: w.key,
      body: {
        purchaser: {
          firstName: 'Marta',
          lastName: 'Reis',
          emailAddress: 'marta@example.test',
          phoneNumber: '+351912345678',
          customQuestionResponses: [{ questionId: remarks.id, answer: [{ value: 'Window seats' }] }],
        },
        data: [{ ...w.item(s, 0), participants: [guest('Ana', 'Adult', answer('veg')), guest('Rui')], notes: 'Birthday' }],
      },
    });
    expect(res.status).toBe(201);
    const [id] = await w.db.values<string>('SELECT id FROM bookings WHERE cart_id = ?', cartId);
    const [created] = await w.eventsOf(id!);
    const view = await w.view(id!);
    expect(created!.payload).toEqual(view);
    expect(JSON.stringify(created!.payload)).toBe(JSON.stringify(view));
    expect(view).toMatchObject({
      notes: 'Birthday',
      purchaser: { firstName: 'Marta', phoneNumber: '+351912345678', customQuestionAnswers: [{ answer: [{ value: 'Window seats' }] }] },
      participants: [{ firstName: 'Ana', customQuestionAnswers: [{ answer: [{ key: 'veg' }] }] }, { firstName: 'Rui' }],
      experience: { id: quiz.id, title: 'Quiz Sail' },
    });
  });

  it('a free cart confirms at once: booking.created then booking.confirmed, both showing it confirmed', async () => {
    const { res, ids } = await w.checkout([w.item(await w.session(10, w.walk))]);
    expect([res.status, res.body.paymentIntentSecret]).toEqual([201, undefined]);
    expect(await statuses(ids[0]!)).toEqual([
      ['booking.created', 'confirmed'],
      ['booking.confirmed', 'confirmed'],
    ]);
    expect((await w.eventsOf(ids[0]!))[1]!.payload).toEqual(await w.view(ids[0]!));
  });

  it('re-posting an unpaid cart: booking.failed for each replaced booking, before the new booking.created', async () => {
    const s = await w.session();
    const cartId = randomUUID();
    const old = await w.checkout([w.item(s), w.item(s)], cartId);
    const fresh = await w.checkout([w.item(s, 3)], cartId);
    expect(fresh.res.status).toBe(201);
    for (const id of old.ids)
      expect(await statuses(id)).toEqual([
        ['booking.created', 'processing'],
        ['booking.failed', 'failed'],
      ]);
    expect(await statuses(fresh.ids[0]!)).toEqual([['booking.created', 'processing']]);
    const failed = await inTurn(old.ids, async (id) => (await w.eventsOf(id))[1]!.sequence);
    expect(Math.max(...failed)).toBeLessThan((await w.eventsOf(fresh.ids[0]!))[0]!.sequence);
  });

  it('a checkout whose transaction fails on its second item (CAPACITY_EXCEEDED) leaves no event: the first booking.created rolls back too', async () => {
    const roomy = await w.session(10);
    const tight = await w.session(1);
    const before = await w.eventCount();
    payments.holdUntil(2);
    const [a, b] = await Promise.all([w.checkout([w.item(roomy), w.item(tight)]), w.checkout([w.item(roomy), w.item(tight)])]);
    payments.holdUntil(1);
    const [won, lost] = a.res.status === 201 ? [a, b] : [b, a];
    // Both passed the early checks before either wrote: the loser failed inside its transaction, after writing its first booking.
    expect([won.res.status, lost.res.status, lost.res.body.error.code, lost.res.body.error.details.field]).toEqual([
      201,
      409,
      'CAPACITY_EXCEEDED',
      'data.1.participants',
    ]);
    expect(lost.ids).toEqual([]);
    expect(await inTurn(won.ids, (id) => w.typesOf(id))).toEqual([['booking.created'], ['booking.created']]);
    expect((await w.eventCount()) - before).toBe(2);
  });
});

describe('holds', () => {
  it('a lapsed hold fails its booking: booking.failed at the time of the sweep', async () => {
    clock.now = at(0);
    const { ids } = await w.checkout([w.item(await w.session())]);
    clock.now = at(HOLD_TTL);
    // Any checkout sweeps lapsed holds first.
    await w.checkout([w.item(await w.session())]);
    expect(await statuses(ids[0]!)).toEqual([
      ['booking.created', 'processing'],
      ['booking.failed', 'failed'],
    ]);
    expect((await w.eventsOf(ids[0]!))[1]!.createdAt).toBe(at(HOLD_TTL).toISOString());
    expect((await w.eventsOf(ids[0]!))[1]!.payload).toEqual(await w.view(ids[0]!));
    clock.now = at(0);
  });
});

describe('payment outcomes (sandbox confirm)', () => {
  it('a succeeded payment: booking.confirmed for each booking; the same event again records nothing', async () => {
    const { secret, ids } = await w.checkout([w.item(await w.session()), w.item(await w.session(), 2)]);
    expect((await w.confirm(secret)).status).toBe(200);
    for (const id of ids)
      expect(await statuses(id)).toEqual([
        ['booking.created', 'processing'],
        ['booking.confirmed', 'confirmed'],
      ]);
    expect((await w.eventsOf(ids[1]!))[1]!.payload).toEqual(await w.view(ids[1]!));
    const count = await w.eventCount();
    await w.confirm(secret);
    expect(await w.eventCount()).toBe(count);
  });

  it('a failed payment: booking.failed; a later failure notice records nothing', async () => {
    const { secret, ids } = await w.checkout([w.item(await w.session())]);
    await w.confirm(secret, 'failed');
    expect(await statuses(ids[0]!)).toEqual([
      ['booking.created', 'processing'],
      ['booking.failed', 'failed'],
    ]);
    const count = await w.eventCount();
    await w.confirm(secret, 'failed');
    expect(await w.eventCount()).toBe(count);
  });

  it('paid after the hold lapsed, with the places still free: booking.failed, then booking.confirmed', async () => {
    clock.now = at(0);
    const { secret, ids } = await w.checkout([w.item(await w.session())]);
    clock.now = at(HOLD_TTL);
    await w.checkout([w.item(await w.session())]);
    await w.confirm(secret);
    expect(await statuses(ids[0]!)).toEqual([
      ['booking.created', 'processing'],
      ['booking.failed', 'failed'],
      ['booking.confirmed', 'confirmed'],
    ]);
    clock.now = at(0);
  });

  it('a late payment of a replaced checkout: booking.cancelled, then booking.refunded once the refund settles', async () => {
    const cartId = randomUUID();
    const old = await w.checkout([w.item(await w.session())], cartId);
    await w.checkout([w.item(await w.session())], cartId);
    await w.confirm(old.secret);
    const events = await w.eventsOf(old.ids[0]!);
    expect(events.map((e) => [e.type, e.payload.status, e.payload.amountRefunded])).toEqual([
      ['booking.created', 'processing', 0],
      ['booking.failed', 'failed', 0],
      ['booking.cancelled', 'cancelled', 0],
      ['booking.refunded', 'refunded', 55.97],
    ]);
    expect(events[3]!.payload).toEqual(await w.view(old.ids[0]!));
  });

  it('a late payment whose refund the processor declines: booking.cancelled only, no booking.refunded', async () => {
    const cartId = randomUUID();
    const old = await w.checkout([w.item(await w.session())], cartId);
    await w.checkout([w.item(await w.session())], cartId);
    payments.declineRefunds = true;
    try {
      await w.confirm(old.secret);
    } finally {
      payments.declineRefunds = false;
    }
    expect(await statuses(old.ids[0]!)).toEqual([
      ['booking.created', 'processing'],
      ['booking.failed', 'failed'],
      ['booking.cancelled', 'cancelled'],
    ]);
  });
});
