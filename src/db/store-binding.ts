/**
 * A unit of work's stores, each bound to the unit on first use. A unit touches a few of the port's stores
 * (a booking's hold: checkout, availability, bookings, outbox), and binding every method of every store
 * for each unit and savepoint (189 closures on 32 objects) was 2 % of a PostgreSQL gateway's CPU under the
 * write mix. Both adapters bind their stores through `storeBinding`, each with its own way of running a call.
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

/**
 * An adapter's stores over a context (its connection, transaction or savepoint): each method made a call on
 * that context by `bindMethod`. `all` binds every store at once (the root database, bound once), `unit`
 * each store on first use (a unit of work or a savepoint).
 */
export function storeBinding<C, S extends object, M>(
  implementations: Record<string, Record<string, M>>,
  bindMethod: (method: M, context: C) => (...args: never[]) => unknown,
): { all(context: C): S; unit(context: C): S } {
  const names = Object.keys(implementations);
  const bindStore = (name: string, context: C): Methods => {
    const bound: Methods = {};
    for (const [method, fn] of Object.entries(implementations[name]!)) bound[method] = bindMethod(fn, context);
    return bound;
  };
  const lazy = lazyStoreBinder<S>(names);
  return {
    all: (context) => Object.fromEntries(names.map((name) => [name, bindStore(name, context)])) as S,
    unit: (context) => lazy((name) => bindStore(name, context)),
  };
}
