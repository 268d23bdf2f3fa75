/**
 * Minimal faces for the flows' unit tests: a hook records what the flow registered on it, so a test
 * can call the reaction itself and see what it asks of the other module. Cast to the module's
 * face type where a flow takes one (only the members a flow uses exist here).
 */
export type Listener = (...args: never[]) => unknown;

/** An object whose `on…`/`proveWith`/`register` methods record the listeners registered on them, by hook name. */
export function hooks() {
  const registered = new Map<string, Listener[]>();
  const add =
    (name: string) =>
    (...args: unknown[]) => {
      const listener = args.at(-1) as Listener;
      const key = args.length > 1 ? `${name}:${String(args[0])}` : name;
      registered.set(key, [...(registered.get(key) ?? []), listener]);
    };
  return {
    registered,
    /** The listeners registered on a hook (`register:kind` for the courier app's kinds). */
    on: (name: string) => registered.get(name) ?? [],
    add,
  };
}

export const as = <T>(value: unknown): T => value as T;

/** A transaction handle the flows only pass along. */
export const TX = as<import('../../src/platform/db/index.ts').Queryable>({ query: async () => [] });
