/**
 * A unit of work's stores, each bound to the unit on first use. A unit touches a few of the port's stores
 * (a booking's hold: checkout, availability, bookings, outbox), and binding every method of every store
 * for each unit and savepoint (189 closures on 32 objects) was 2 % of a PostgreSQL gateway's CPU under the
 * write mix. Both adapters bind their stores through this, each with its own way of running a call.
 */

type Methods = Record<string, (...args: never[]) => unknown>;

/**
 * `bindStore(name)` makes the store `name` of one unit (its methods running on that unit); the answer
 * makes it once, when the unit first reads `unit[name]`, and keeps it. The prototype holding one getter
 * per store is built once for all units.
 */
export function lazyStoreBinder<S extends object>(names: readonly string[]): (bindStore: (name: string) => Methods) => S {
  const BIND = Symbol('bindStore');
  const prototype: object = {};
  for (const name of names) {
    Object.defineProperty(prototype, name, {
      enumerable: true,
      configurable: true,
      get(this: Record<string | symbol, unknown>) {
        const store = (this[BIND] as (name: string) => Methods)(name);
        Object.defineProperty(this, name, { value: store, enumerable: true, configurable: true, writable: true });
        return store;
      },
    });
  }
  return (bindStore) => {
    const unit = Object.create(prototype) as Record<string | symbol, unknown>;
    unit[BIND] = bindStore;
    return unit as S;
  };
}
