/**
 * The live hub (src/domain/live/hub.ts) over a database that fails and recovers: it keeps going, reads
 * again at the next tick from where it stopped, coalesces hints, and leaves no timer once closed. A
 * database of events in memory stands in for the port here; the hub on real engines is tested in
 * test/api/live and test/postgres/live-on-two-gateways.test.ts.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { startLiveHub } from '../../../src/domain/live/hub.ts';
import type { EventRow } from '../../../src/domain/outbox/store.ts';
import type { Database } from '../../../src/domain/shared/database.ts';

const row = (sequence: number): EventRow => ({
  sequence,
  id: `event-${sequence}`,
  brandId: 'brand',
  type: 'booking.created',
  resourceId: 'booking',
  payload: {},
  createdAt: '2027-02-01T10:00:00.000Z',
});

/** Events 1..`count` and a switch that makes every read fail as an unreachable database does. */
function eventsDatabase(count: number) {
  const state = { events: Array.from({ length: count }, (_, i) => row(i + 1)), down: false, reads: 0, hint: () => {} };
  const read = <T>(value: () => T) => {
    state.reads += 1;
    return state.down ? Promise.reject(new Error('connection refused')) : Promise.resolve(value());
  };
  const database = {
    events: {
      lastEventSequence: () => read(() => state.events.length),
      findEventsAfter: (after: number, limit: number) => read(() => state.events.filter((e) => e.sequence > after).slice(0, limit)),
    },
    onEventsCommitted: (listener: () => void) => {
      state.hint = listener;
      return () => (state.hint = () => {});
    },
  } as unknown as Database;
  const add = (n: number) => {
    const base = state.events.length;
    state.events.push(...Array.from({ length: n }, (_, i) => row(base + i + 1)));
  };
  return { database, state, add };
}

afterEach(() => {
  vi.useRealTimers();
});

describe('the live hub', () => {
  it('starts after the events already there, pages what follows to every listener, and survives an outage', async () => {
    vi.useFakeTimers();
    const { database, state, add } = eventsDatabase(3);
    const warnings: string[] = [];
    const hub = await startLiveHub(database, { catchUpIntervalMs: 1000, log: { warn: (_details, message) => warnings.push(message) } });
    const got: number[][] = [];
    const stop = await hub.listen((events) => got.push(events.map((e) => e.sequence)));
    expect(hub.position).toBe(3);

    add(1200);
    state.hint();
    await vi.waitFor(() => expect(hub.position).toBe(1203));
    // Pages of 500, each in order, nothing before the start.
    expect(got.map((page) => [page[0], page.at(-1), page.length])).toStrictEqual([
      [4, 503, 500],
      [504, 1003, 500],
      [1004, 1203, 200],
    ]);

    state.down = true;
    add(2);
    state.hint();
    await vi.waitFor(() => expect(warnings).toHaveLength(1));
    expect(got).toHaveLength(3);
    // Back up: the next tick reads from where the hub stopped.
    state.down = false;
    await vi.advanceTimersByTimeAsync(1000);
    expect(got.at(-1)).toStrictEqual([1204, 1205]);
    expect(warnings).toStrictEqual(['reading the events for live updates failed; trying again at the next tick']);

    stop();
    expect(hub.listenerCount).toBe(0);
    await hub.close();
    expect(vi.getTimerCount()).toBe(0);
  });

  it('reads once more for hints that came while it read, not once per hint, and reads nothing while nobody listens', async () => {
    const { database, state, add } = eventsDatabase(0);
    const hub = await startLiveHub(database, { catchUpIntervalMs: 60_000 });
    // Nobody listens: hints cost no statement.
    add(700);
    state.hint();
    expect(state.reads).toBe(0);
    const got: number[] = [];
    // The first listener takes the newest sequence as the hub's position: what came before is not its.
    await hub.listen((events) => got.push(...events.map((e) => e.sequence)));
    expect(hub.position).toBe(700);
    await vi.waitFor(() => expect(state.reads).toBe(2));
    add(2);
    const readsBefore = state.reads;
    for (let i = 0; i < 10; i += 1) state.hint();
    await vi.waitFor(() => expect(got).toStrictEqual([701, 702]));
    await hub.close();
    // One read for the first hint (a short page ends it), one more for the nine that came meanwhile.
    expect(state.reads - readsBefore).toBe(2);
  });

  it('takes its position from the first listener, which fails while the database is down and succeeds once it is back', async () => {
    const { database, state } = eventsDatabase(5);
    state.down = true;
    const hub = await startLiveHub(database, { catchUpIntervalMs: 60_000 });
    await expect(hub.listen(() => {})).rejects.toThrow();
    expect(hub.listenerCount).toBe(0);
    state.down = false;
    await hub.listen(() => {});
    expect(hub.position).toBe(5);
    await hub.close();
  });
});
