/**
 * Joining a waitlist (spec operation 6) on both faces: the entry, its place in line, every validation
 * rule with its code and field, the one-live-entry-per-email rule and who may join.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { CHECKOUT_NOW } from '../../support/clock.ts';
import { createWaitlist } from '../../../fixtures/factories/availability.ts';
import { createBooking, createSession } from '../../../fixtures/factories/bookings.ts';
import { assignQuestion, createExperience, createQuestion } from '../../../fixtures/factories/catalog.ts';
import { JOIN, WAITLIST, waitlistWorld } from '../../support/waitlist-world.ts';

const w = await waitlistWorld();
const { db, brand, keys, waitlist } = w;

// The quiz asks each participant their diet (required); the purchaser must accept the waiver.
const quiz = (await createExperience(db, brand.id, { title: 'Wine quiz' })).experience;
const quizWaitlist = await createWaitlist(db, quiz.id);
const quizSession = await createSession(db, quiz, { startLocal: '2027-02-01T18:00:00', capacity: 1 });
await createBooking(db, { brandId: brand.id, session: quizSession });
const NONE = randomUUID();
const diet = await createQuestion(db, brand.id, { prompt: 'Diet?', fieldType: 'single_select', options: [{ key: NONE, value: 'None' }] });
const waiver = await createQuestion(db, brand.id, {
  prompt: 'Waiver',
  fieldType: 'terms_and_conditions',
  termsAndConditions: { label: 'I agree', mediaId: 'm1', isOverrided: false },
});
await assignQuestion(db, quiz.id, diet.id, { isRequired: true, order: 1 });
await assignQuestion(db, quiz.id, waiver.id, { isRequired: true, order: 0, scope: 'purchaser' });
const accepted = { questionId: waiver.id, answer: [{ value: 'true' }] };
const dietNone = { questionId: diet.id, answer: [{ key: NONE }] };

const closed = (await createExperience(db, brand.id, { isBookable: false })).experience;
const closedWaitlist = await createWaitlist(db, closed.id);
await createSession(db, closed, { startLocal: '2027-02-01T18:00:00', capacity: 0 });

const soldOut = await w.session(4);
const roomy = await w.session(4, 1);
// Started an hour before the clock (12:00 UTC is 12:00 in Lisbon in November).
const started = await createSession(db, w.sail, { startLocal: '2026-11-25T11:00:00', capacity: 1 });
await createBooking(db, { brandId: brand.id, session: started });

const base = () => w.body(soldOut, 2);
const withBody = (change: (body: ReturnType<typeof base>) => void) => {
  const body = base();
  change(body);
  return body;
};
const quizBody = (participantResponses: object[], purchaserResponses: object[] = [accepted]) => {
  const body = w.body(quizSession, 1);
  return {
    ...body,
    purchaser: { ...body.purchaser, customQuestionResponses: purchaserResponses },
    participants: [{ ...body.participants[0]!, customQuestionResponses: participantResponses }],
  };
};

type Case = [name: string, body: object, status: number, code: string, field: string | undefined, waitlistId?: string];

const cases: Case[] = [
  ['a month 13', withBody((b) => (b.sessionStartDate = '2027-13-01')), 400, 'VALIDATION_FAILED', 'sessionStartDate'],
  ['a day 32', withBody((b) => (b.sessionStartDate = '2027-01-32')), 400, 'VALIDATION_FAILED', 'sessionStartDate'],
  ['a date without leading zeros', withBody((b) => (b.sessionStartDate = '2027-1-5')), 400, 'VALIDATION_FAILED', 'sessionStartDate'],
  ['30 February', withBody((b) => (b.sessionStartDate = '2027-02-30')), 400, 'VALIDATION_FAILED', 'sessionStartDate'],
  ['24:00', withBody((b) => (b.sessionStartTime = '24:00')), 400, 'VALIDATION_FAILED', 'sessionStartTime'],
  ['minute 60', withBody((b) => (b.sessionStartTime = '18:60')), 400, 'VALIDATION_FAILED', 'sessionStartTime'],
  ['second 60', withBody((b) => (b.sessionStartTime = '18:00:60')), 400, 'VALIDATION_FAILED', 'sessionStartTime'],
  ['an hour without its leading zero', withBody((b) => (b.sessionStartTime = '6:00')), 400, 'VALIDATION_FAILED', 'sessionStartTime'],
  ['a duration of 0', withBody((b) => (b.sessionDuration = 0)), 400, 'VALIDATION_FAILED', 'sessionDuration'],
  ['a duration unlike the session', withBody((b) => (b.sessionDuration = 90)), 422, 'SESSION_NOT_FOUND', 'sessionDuration'],
  ['a time with no session', withBody((b) => (b.sessionStartTime = '19:00')), 422, 'SESSION_NOT_FOUND', 'sessionStartTime'],
  [
    'a session that has started',
    { ...w.body(started, 1), sessionStartDate: '2026-11-25', sessionStartTime: '11:00' },
    422,
    'SESSION_STARTED',
    'sessionStartTime',
  ],
  ['no participants', withBody((b) => (b.participants = [])), 400, 'VALIDATION_FAILED', 'participants'],
  [
    'an unknown price tier',
    withBody((b) => (b.participants[1]!.priceTierName = 'VIP')),
    422,
    'UNKNOWN_PRICE_TIER',
    'participants.1.priceTierName',
  ],
  ['more participants than the maximum', w.body(soldOut, 7), 422, 'PARTICIPANT_COUNT_OUT_OF_RANGE', 'participants'],
  ['a malformed email', withBody((b) => (b.purchaser.emailAddress = 'marta-at-home')), 400, 'VALIDATION_FAILED', 'purchaser.emailAddress'],
  ['an empty email', withBody((b) => (b.purchaser.emailAddress = '')), 400, 'VALIDATION_FAILED', 'purchaser.emailAddress'],
  ['a blank first name', withBody((b) => (b.participants[0]!.firstName = '')), 400, 'VALIDATION_FAILED', 'participants.0.firstName'],
  ['a required answer missing', quizBody([]), 422, 'ANSWER_REQUIRED', 'participants.0.customQuestionResponses', quizWaitlist.id],
  [
    'terms not accepted by the purchaser',
    quizBody([dietNone], []),
    422,
    'ANSWER_REQUIRED',
    'purchaser.customQuestionResponses',
    quizWaitlist.id,
  ],
  [
    'an unknown question',
    quizBody([dietNone, { questionId: randomUUID(), answer: [{ value: 'x' }] }]),
    422,
    'UNKNOWN_QUESTION',
    'participants.0.customQuestionResponses.1.questionId',
    quizWaitlist.id,
  ],
  ['a session with room for the party', w.body(roomy, 3), 409, 'SESSION_AVAILABLE', undefined],
  [
    'an experience not bookable',
    { ...w.body(soldOut, 1), sessionStartDate: '2027-02-01' },
    422,
    'EXPERIENCE_NOT_BOOKABLE',
    'waitlistId',
    closedWaitlist.id,
  ],
];

describe('refused joins, on both faces', () => {
  it.each(cases)('%s', async (_name, body, status, code, field, waitlistId = waitlist.id) => {
    const rest = await w.join(body, keys.brand, waitlistId);
    expect({ status: rest.status, code: rest.body.error?.code, field: rest.body.error?.details?.field }).toEqual({ status, code, field });
    const gql = await w.gqlJoin(body, keys.brand, waitlistId);
    expect(gql.body.data).toBeNull();
    expect({ code: gql.body.errors[0].extensions.code, field: gql.body.errors[0].extensions.field }).toEqual({ code, field });
  });

  it('wrote no entry for any of them', async () => {
    expect(await db.value('SELECT count(*) FROM waitlist_entries')).toBe(0);
  });

  it('requires the purchaser email (REST names it; GraphQL refuses the variable)', async () => {
    const body = base();
    const { emailAddress: _, ...purchaser } = body.purchaser;
    const rest = await w.join({ ...body, purchaser });
    expect(rest.body.error).toMatchObject({ code: 'VALIDATION_FAILED', details: { field: 'purchaser.emailAddress' } });
    expect((await w.gqlJoin({ ...body, purchaser })).body.errors[0].extensions.code).toBe('BAD_USER_INPUT');
  });

  it('refuses unknown body fields and ids that are not UUIDs', async () => {
    expect((await w.join({ ...base(), colour: 'blue' })).body.error).toMatchObject({
      code: 'VALIDATION_FAILED',
      details: { field: 'colour' },
    });
    expect((await w.join(base(), keys.brand, 'sunset-sail')).body.error).toMatchObject({
      code: 'VALIDATION_FAILED',
      details: { field: 'waitlistId' },
    });
    expect((await w.gqlJoin(base(), keys.brand, 'sunset-sail')).body.errors[0].extensions.code).toBe('BAD_USER_INPUT');
  });
});

describe('who may join', () => {
  it('needs a key (401), a key of the path brand (403) and a waitlist of that brand (404)', async () => {
    expect((await w.join(base(), '')).status).toBe(401);
    expect((await w.gqlJoin(base(), '')).body.errors[0].extensions.code).toBe('UNAUTHENTICATED');
    expect((await w.join(base(), keys.sister)).body.error.code).toBe('FORBIDDEN');
    expect((await w.gqlJoin(base(), keys.outsider)).body.errors[0].extensions.code).toBe('FORBIDDEN');
    for (const id of [w.sisterWaitlist.id, randomUUID()]) {
      const rest = await w.join(base(), keys.brand, id);
      expect([rest.status, rest.body.error.code]).toEqual([404, 'NOT_FOUND']);
      expect((await w.gqlJoin(base(), keys.brand, id)).body.errors[0].extensions.code).toBe('NOT_FOUND');
    }
  });

  it('lets an organization key join for any of its brands', async () => {
    const s = await w.session(2);
    expect((await w.join(w.body(s, 1), keys.org)).status).toBe(201);
    expect((await w.gqlJoin(w.body(s, 1), keys.org)).body.data.joinWaitlist.entry.position).toBe(2);
  });
});

describe('a joined entry', () => {
  it("waits at the end of its session's line, shown alike on both faces", async () => {
    const s = await w.session(3);
    const first = await w.join({ ...w.body(s, 2, 'marta@example.test'), sessionStartTime: '18:00:00' });
    expect(first.status).toBe(201);
    expect(first.body).toEqual({
      id: expect.any(String),
      waitlistId: waitlist.id,
      status: 'waiting',
      position: 1,
      sessionStartDateTime: s.startLocal,
      timezone: 'Europe/Lisbon',
      purchaser: { firstName: 'Marta', lastName: 'Reis', emailAddress: 'marta@example.test', phoneNumber: '+351 912 000 111' },
      participants: [
        { firstName: 'Guest1', lastName: 'Reis', priceTierName: 'Adult', emailAddress: null, phoneNumber: null },
        { firstName: 'Guest2', lastName: 'Reis', priceTierName: 'Child', emailAddress: null, phoneNumber: null },
      ],
      createdAt: CHECKOUT_NOW,
      offerExpiresAt: null,
      convertedBookingId: null,
    });
    const second = await w.gqlJoin(w.body(s, 3));
    const third = await w.join(w.body(s, 1));
    expect([second.body.data.joinWaitlist.entry.position, third.body.position]).toEqual([2, 3]);
    expect(second.body.data.joinWaitlist.entry.status).toBe('WAITING');

    const rest = await w.entries(`?sessionStartDateTime=${s.startLocal.slice(0, 16)}`);
    expect(rest.map((e) => e.position)).toEqual([1, 2, 3]);
    expect(rest[0]).toEqual(first.body);
    const gql = await w.t().gql(WAITLIST, { brandId: brand.id, id: waitlist.id, at: s.startLocal }, { key: keys.brand });
    expect(gql.body.data.waitlist.uuid).toBe(waitlist.id);
    expect(gql.body.data.waitlist.experienceId).toBe(w.sail.id);
    expect(gql.body.data.waitlist.entries).toEqual(rest.map((e) => ({ ...e, status: String(e.status).toUpperCase() })));
  });

  it('keeps the answers as checkout validated them', async () => {
    const res = await w.join(quizBody([dietNone]), keys.brand, quizWaitlist.id);
    expect(res.status).toBe(201);
    const row = (await db.one(
      'SELECT purchaser, participants, party_size AS "partySize" FROM waitlist_entries WHERE id = ?',
      res.body.id,
    )) as Record<string, string>;
    const purchaser = JSON.parse(row.purchaser!);
    const [participant] = JSON.parse(row.participants!);
    expect(purchaser.answers.map((a: any) => [a.question.customQuestionId, a.answer])).toEqual([[waiver.id, [{ value: true }]]]);
    expect(participant.answers.map((a: any) => [a.question.customQuestionId, a.answer])).toEqual([
      [diet.id, [{ value: 'None', key: NONE }]],
    ]);
    expect(row.partySize).toBe(1);
  });

  it('records waitlist.entry_created with the entry as REST shows it', async () => {
    const res = await w.join(w.body(await w.session(2), 1));
    const event = (await db.one('SELECT type, brand_id AS "brandId", payload FROM events WHERE resource_id = ?', res.body.id)) as Record<
      string,
      string
    >;
    expect({ ...event, payload: JSON.parse(event.payload!) }).toEqual({
      type: 'waitlist.entry_created',
      brandId: brand.id,
      payload: res.body,
    });
  });
});

describe('one live entry per purchaser email and session', () => {
  it('refuses a second one whatever the case of the email, on both faces', async () => {
    const s = await w.session(2);
    expect((await w.join(w.body(s, 1, 'Rita.Lobo@Example.test'))).status).toBe(201);
    const rest = await w.join(w.body(s, 2, 'rita.lobo@example.TEST'));
    expect([rest.status, rest.body.error.code, rest.body.error.details.field]).toEqual([
      409,
      'ALREADY_ON_WAITLIST',
      'purchaser.emailAddress',
    ]);
    const gql = await w
      .t()
      .gql(JOIN, { brandId: brand.id, waitlistId: waitlist.id, input: w.body(s, 1, 'RITA.LOBO@example.test') }, { key: keys.brand });
    expect(gql.body.errors[0].extensions).toMatchObject({ code: 'ALREADY_ON_WAITLIST', field: 'purchaser.emailAddress' });
    // Another session is another line.
    expect((await w.join(w.body(await w.session(2), 1, 'rita.lobo@example.test'))).status).toBe(201);
  });

  it('allows it again once the first entry has left the line, at the end of the line', async () => {
    const s = await w.session(2);
    const first = await w.join(w.body(s, 1, 'ines@example.test'));
    await w.join(w.body(s, 1));
    const left = await w
      .t()
      .rest('DELETE', `/v1/brands/${brand.id}/waitlists/${waitlist.id}/entries/${first.body.id}`, { key: keys.brand });
    expect(left.body.status).toBe('cancelled');
    const again = await w.join(w.body(s, 1, 'Ines@example.test'));
    expect([again.status, again.body.position]).toEqual([201, 3]);
  });
});
