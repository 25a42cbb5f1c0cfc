/**
 * Advertised means possible: every payment method a demo experience lists is one its checkout accepts.
 * For each demo brand and each of its experiences, one checkout per advertised method (answering the
 * required custom questions, a room or member number where the method needs one) must succeed.
 */
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { demoIds } from '../../../src/db/demo/ids.ts';
import { seedDemoDataIfEmpty } from '../../../src/db/demo/index.ts';
import { startApp, type TestApp } from '../../support/app.ts';
import { freshDb } from '../../support/db.ts';

const db = await freshDb();
await seedDemoDataIfEmpty(db);
let t: TestApp;
beforeAll(async () => {
  t = await startApp(db);
});

const keys: Record<string, string> = {
  [demoIds.brands.lisbon]: 'sk_test_lisbon_demo',
  [demoIds.brands.tokyo]: 'sk_test_tokyo_demo',
  [demoIds.brands.kayak]: 'sk_test_kayak_demo',
};

interface Question {
  customQuestionId: string;
  fieldType: string;
  options: Array<{ key: string }> | null;
  config: { isRequired: boolean; isActive: boolean; scope: 'purchaser' | 'participant'; conditions: unknown[] | null };
}

/** Answers to the questions a checkout must answer (required, active, shown unconditionally). */
function answers(questions: Question[], scope: Question['config']['scope']) {
  return questions
    .filter((q) => q.config.isRequired && q.config.isActive && !q.config.conditions?.length && q.config.scope === scope)
    .map((q) => ({
      questionId: q.customQuestionId,
      answer: q.options?.length ? [{ key: q.options[0]!.key }] : [{ value: q.fieldType === 'terms_and_conditions' ? 'true' : 'Yes' }],
    }));
}

const date = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

describe('payment methods the demo experiences advertise', () => {
  it('leaves out what checkout refuses: Tokyo stores regional-processor and cash, and advertises only the card', async () => {
    const tokyo = await db.all<{ id: string; methods: string | string[] }>(
      `SELECT id, payment_methods AS methods FROM experiences WHERE brand_id = '${demoIds.brands.tokyo}' ORDER BY id`,
    );
    expect(tokyo.flatMap((row) => (typeof row.methods === 'string' ? (JSON.parse(row.methods) as string[]) : row.methods)).sort()).toEqual(
      expect.arrayContaining(['cash', 'regional-processor', 'credit-card']),
    );
    for (const { id } of tokyo) {
      const experience = await t.rest('GET', `/v1/brands/${demoIds.brands.tokyo}/experiences/${id}`, { key: keys[demoIds.brands.tokyo] });
      expect(experience.body.paymentMethods, id).toEqual(['credit-card']);
    }
  });

  it('checks out once with every advertised method of every demo experience', async () => {
    const done: string[] = [];
    const experiences = await db.all<{ id: string; brandId: string; party: number | null }>(
      'SELECT id, brand_id AS "brandId", minimum_required_to_book AS party FROM experiences ORDER BY id',
    );
    for (const { id: experienceId, brandId, party } of experiences) {
      const guests = Math.max(1, Number(party ?? 1));
      const key = keys[brandId]!;
      {
        const experience = await t.rest('GET', `/v1/brands/${brandId}/experiences/${experienceId}`, { key });
        expect(experience.status, experienceId).toBe(200);
        const questions = (await t.rest('GET', `/v1/brands/${brandId}/experiences/${experienceId}/custom-questions`, { key })).body
          .data as Question[];
        const sessions = (
          await t.rest('GET', `/v1/brands/${brandId}/experiences/${experienceId}/availability?from=${date(1)}&to=${date(60)}`, { key })
        ).body.data as Array<{ startDateTime: string; remaining: number }>;
        const open = sessions.filter((s) => s.remaining >= guests);
        const methods = experience.body.paymentMethods as string[];
        expect(methods.length, experienceId).toBeGreaterThan(0);
        for (const [i, method] of methods.entries()) {
          const session = open[i % open.length]!;
          const cartId = randomUUID();
          const res = await t.rest('POST', `/v1/brands/${brandId}/carts/${cartId}/payment_intents`, {
            key,
            body: {
              data: [
                {
                  experienceId,
                  sessionTime: session.startDateTime,
                  participants: Array.from({ length: guests }, (_, n) => ({
                    firstName: `Guest${n + 1}`,
                    lastName: 'Moreira',
                    priceTierName: experience.body.priceTiers[0].name,
                    customQuestionResponses: answers(questions, 'participant'),
                  })),
                },
              ],
              purchaser: {
                firstName: 'Rita',
                lastName: 'Moreira',
                emailAddress: 'rita@example.com',
                customQuestionResponses: answers(questions, 'purchaser'),
              },
              paymentMethod: method,
              ...(method === 'room-charge' ? { roomNumber: '214' } : method === 'member-number' ? { memberNumber: 'HC-0042' } : {}),
            },
          });
          expect([res.status, res.body.error], `${experienceId} ${method}`).toEqual([201, undefined]);
          const booking = await db.row('bookings', { cartId });
          expect([booking.paymentMethod, booking.status], `${experienceId} ${method}`).toEqual([
            method,
            method === 'credit-card' ? 'processing' : 'confirmed',
          ]);
          done.push(`${experienceId} ${method}`);
        }
      }
    }
    // Every experience sold by at least one method; room charges and pay-upon-arrival on several of them.
    expect(new Set(done.map((line) => line.split(' ')[0])).size).toBe(experiences.length);
    expect(done.length).toBeGreaterThanOrEqual(experiences.length + 4);
  });
});
