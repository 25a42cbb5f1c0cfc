import { beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp } from '../../support/app.ts';
import { freshDb } from '../../support/db.ts';
import { createApiKey, createBrand } from '../../../fixtures/factories/brands.ts';
import { createWebhookEndpoint, deliveriesOf, recordTestEvent } from '../../../fixtures/factories/webhooks.ts';

/** The delivery log through GraphQL; no dispatcher runs here, so the rows hold exactly what the test wrote. */
const db = await freshDb();
const brand = await createBrand(db);
const outsider = await createBrand(db);
const key = (await createApiKey(db, { brandId: brand.id })).secret;
const outsiderKey = (await createApiKey(db, { brandId: outsider.id })).secret;
const T0 = Date.parse('2026-11-25T12:00:00.000Z');
const at = (s: number) => new Date(T0 + s * 1000);
const hookA = await createWebhookEndpoint(db, brand.id, {
  url: 'https://a.partner.test/hook',
  events: ['booking.created', 'booking.confirmed'],
});
const hookB = await createWebhookEndpoint(db, brand.id, { url: 'https://b.partner.test/hook', events: ['booking.confirmed'] });
const theirs = await createWebhookEndpoint(db, outsider.id, { url: 'https://c.partner.test/hook' });
const created = await recordTestEvent(db, { brandId: brand.id, type: 'booking.created', at: at(0) });
const confirmed = await recordTestEvent(db, { brandId: brand.id, type: 'booking.confirmed', resourceId: created.resourceId, at: at(5) });
await recordTestEvent(db, { brandId: outsider.id, at: at(6) });
const [aCreated, aConfirmed] = await deliveriesOf(db, hookA.id);
const [bConfirmed] = await deliveriesOf(db, hookB.id);
await db.update(
  'webhookDeliveries',
  { id: aCreated!.id },
  {
    status: 'delivered',
    attempts: 2,
    lastAttemptAt: at(20).toISOString(),
    lastStatusCode: 200,
    deliveredAt: at(21).toISOString(),
    lastError: null,
  },
);
await db.update(
  'webhookDeliveries',
  { id: aConfirmed!.id },
  { attempts: 1, lastAttemptAt: at(5).toISOString(), lastStatusCode: 500, lastError: 'HTTP 500', nextAttemptAt: at(15).toISOString() },
);
await db.update('webhookDeliveries', { id: bConfirmed!.id }, { status: 'failed', attempts: 14, lastError: 'timed out after 10000 ms' });

let t: TestApp;
beforeAll(async () => {
  t = await startApp(db);
});

const query = `query($brandId: UUID!, $endpointId: UUID, $status: WebhookDeliveryStatus, $first: Int, $after: String) {
  webhookDeliveries(brandId: $brandId, endpointId: $endpointId, status: $status, first: $first, after: $after) {
    totalCount
    pageInfo { hasNextPage hasPreviousPage startCursor endCursor }
    edges { cursor node { uuid endpointId eventId eventType status attempts lastAttemptAt lastStatusCode lastError nextAttemptAt deliveredAt createdAt } }
  }
}`;
const log = (variables: Record<string, unknown>, k = key) => t.gql(query, { brandId: brand.id, ...variables }, { key: k });
const ids = (res: { body: any }) => res.body.data.webhookDeliveries.edges.map((e: { node: { uuid: string } }) => e.node.uuid);

describe('webhookDeliveries', () => {
  it('lists the brand’s deliveries newest event first, with each attempt’s outcome', async () => {
    const res = await log({});
    expect(res.body.errors).toBeUndefined();
    const connection = res.body.data.webhookDeliveries;
    expect(connection.totalCount).toBe(3);
    const nodes = connection.edges.map((e: { node: unknown }) => e.node);
    // Same event: the order between its two deliveries follows their ids.
    expect(nodes.slice(0, 2).map((n: { uuid: string }) => n.uuid)).toEqual([aConfirmed!.id, bConfirmed!.id].sort().reverse());
    expect(nodes.find((n: { uuid: string }) => n.uuid === aConfirmed!.id)).toEqual({
      uuid: aConfirmed!.id,
      endpointId: hookA.id,
      eventId: confirmed.id,
      eventType: 'BOOKING_CONFIRMED',
      status: 'PENDING',
      attempts: 1,
      lastAttemptAt: at(5).toISOString(),
      lastStatusCode: 500,
      lastError: 'HTTP 500',
      nextAttemptAt: at(15).toISOString(),
      deliveredAt: null,
      createdAt: at(5).toISOString(),
    });
    expect(nodes[2]).toEqual({
      uuid: aCreated!.id,
      endpointId: hookA.id,
      eventId: created.id,
      eventType: 'BOOKING_CREATED',
      status: 'DELIVERED',
      attempts: 2,
      lastAttemptAt: at(20).toISOString(),
      lastStatusCode: 200,
      lastError: null,
      nextAttemptAt: null,
      deliveredAt: at(21).toISOString(),
      createdAt: at(0).toISOString(),
    });
    expect(nodes.find((n: { uuid: string }) => n.uuid === bConfirmed!.id)).toMatchObject({
      status: 'FAILED',
      attempts: 14,
      nextAttemptAt: null,
    });
  });

  it('filters by endpoint and by status', async () => {
    expect(ids(await log({ endpointId: hookA.id }))).toEqual([aConfirmed!.id, aCreated!.id]);
    expect(ids(await log({ status: 'FAILED' }))).toEqual([bConfirmed!.id]);
    expect(ids(await log({ endpointId: hookA.id, status: 'PENDING' }))).toEqual([aConfirmed!.id]);
    expect(ids(await log({ endpointId: hookB.id, status: 'DELIVERED' }))).toEqual([]);
  });

  it('pages with cursors', async () => {
    const all = ids(await log({}));
    const first = await log({ first: 2 });
    expect(ids(first)).toEqual(all.slice(0, 2));
    expect(first.body.data.webhookDeliveries.pageInfo).toMatchObject({ hasNextPage: true, hasPreviousPage: false });
    const next = await log({ first: 2, after: first.body.data.webhookDeliveries.pageInfo.endCursor });
    expect(ids(next)).toEqual(all.slice(2));
    expect(next.body.data.webhookDeliveries.pageInfo).toMatchObject({ hasNextPage: false, hasPreviousPage: true });
    expect(next.body.data.webhookDeliveries.totalCount).toBe(3);
  });

  it.each([
    [{ first: 0 }, 'first'],
    [{ first: 101 }, 'first'],
    [{ after: 'not-a-cursor' }, 'after'],
    [{ after: Buffer.from(JSON.stringify(['x', 'y'])).toString('base64url') }, 'after'],
  ])('refuses %j as VALIDATION_FAILED on %s', async (variables, field) => {
    const res = await log(variables);
    expect(res.body.errors[0].extensions).toMatchObject({ code: 'VALIDATION_FAILED', field });
  });

  it('refuses a status that is not one', async () => {
    expect((await log({ status: 'pending' })).body.errors[0].extensions.code).toBe('BAD_USER_INPUT');
  });

  it("answers NOT_FOUND for another brand's endpoint and an unknown one", async () => {
    expect((await log({ endpointId: theirs.id })).body.errors[0].extensions.code).toBe('NOT_FOUND');
    expect((await log({ endpointId: crypto.randomUUID() })).body.errors[0].extensions.code).toBe('NOT_FOUND');
  });

  it('keeps the log of a deleted endpoint readable', async () => {
    expect((await t.rest('DELETE', `/v1/brands/${brand.id}/webhooks/${hookB.id}`, { key })).status).toBe(200);
    expect(ids(await log({ endpointId: hookB.id }))).toEqual([bConfirmed!.id]);
  });

  it('needs a key that may act for the brand', async () => {
    expect((await t.gql(query, { brandId: brand.id })).body.errors[0].extensions.code).toBe('UNAUTHENTICATED');
    expect((await log({}, outsiderKey)).body.errors[0].extensions.code).toBe('FORBIDDEN');
    expect(ids(await t.gql(query, { brandId: outsider.id }, { key: outsiderKey }))).toHaveLength(1);
  });
});
