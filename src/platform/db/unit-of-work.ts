import { AsyncLocalStorage } from 'node:async_hooks';
import type { Db, DriverDb, Queryable, Row } from './types.ts';

/** The open unit of work's transaction, as seen from one level of savepoints. */
interface Scope {
  tx: Queryable;
  /** Whether the unit still accepts statements (false once it has committed or rolled back). */
  unit: { open: boolean; savepoints: number };
  /** Siblings at this level take turns: savepoints nest, they cannot interleave. */
  turn: Promise<unknown>;
  /**
   * The savepoint of the last sibling that finished at this level, not yet released: its release
   * goes with the next sibling's savepoint, in one round trip. Left unreleased, it ends with its
   * parent (whose release or rollback takes it too) or with the unit's commit.
   */
  unreleased?: string;
}

/**
 * Runs `fn` inside a savepoint of the unit's transaction: a failure rolls back only what `fn` wrote
 * (as its own transaction would have) and leaves the unit usable; its after-commit effects wait for
 * the unit's commit and are dropped with a rollback.
 */
function inSavepoint<T>(
  scope: Scope,
  current: AsyncLocalStorage<Scope>,
  fn: (tx: Queryable) => Promise<T>,
): Promise<T> {
  const run = async (): Promise<T> => {
    const name = `uow_${++scope.unit.savepoints}`;
    const effects: Array<() => void> = [];
    const channels: Array<[channel: string, key: string | undefined]> = [];
    const inner: Scope = { tx: scope.tx, unit: scope.unit, turn: Promise.resolve() };
    const previous = scope.unreleased;
    scope.unreleased = undefined;
    await scope.tx.exec(
      previous ? `release savepoint ${previous}; savepoint ${name}` : `savepoint ${name}`,
    );
    try {
      const result = await current.run(inner, () =>
        fn({
          query: <R = Row>(sql: string, params?: readonly unknown[]) =>
            scope.tx.query<R>(sql, params),
          exec: (sql) => scope.tx.exec(sql),
          afterCommit: (effect) => effects.push(effect),
          notify: (channel, key) => void channels.push([channel, key]),
        }),
      );
      // Released with the next sibling's savepoint (a round trip saved per statement joined).
      scope.unreleased = name;
      effects.forEach((effect) => scope.tx.afterCommit(effect));
      // Handed to the transaction itself, which sends them after its commit: an after-commit effect
      // that notified would reach a transaction whose commit effects have already run, and be lost.
      channels.forEach(([channel, key]) => scope.tx.notify(channel, key));
      return result;
    } catch (err) {
      await scope.tx.exec(`rollback to savepoint ${name}`);
      throw err;
    }
  };
  const result = scope.turn.then(run, run);
  scope.turn = result.catch(() => undefined);
  return result;
}

/**
 * Gives `db` a `unitOfWork`: one transaction that every `query`, `exec` and `transaction` called from
 * inside it (in its async context, on this same `db`) joins, each in a savepoint of its own. A caller
 * can so make several services' changes, each written with its own `db.transaction`, commit or roll
 * back together (the operator API commits a change with its audit entry). Effects wait for the commit.
 */
export function withUnitsOfWork(db: DriverDb): Db {
  const current = new AsyncLocalStorage<Scope>();
  const joined = (): Scope | undefined => {
    const scope = current.getStore();
    return scope?.unit.open ? scope : undefined;
  };
  return {
    ...db,
    query: <T = Row>(sql: string, params?: readonly unknown[]) => {
      const scope = joined();
      return scope
        ? inSavepoint(scope, current, (tx) => tx.query<T>(sql, params))
        : db.query<T>(sql, params);
    },
    exec: (sql) => {
      const scope = joined();
      return scope ? inSavepoint(scope, current, (tx) => tx.exec(sql)) : db.exec(sql);
    },
    afterCommit: (effect) => (joined()?.tx ?? db).afterCommit(effect),
    notify: (channel, key) => (joined()?.tx ?? db).notify(channel, key),
    transaction: (fn) => {
      const scope = joined();
      return scope ? inSavepoint(scope, current, fn) : db.transaction(fn);
    },
    unitOfWork: (fn) => {
      const scope = joined();
      if (scope) return inSavepoint(scope, current, fn);
      return db.transaction(async (tx) => {
        const unit = { open: true, savepoints: 0 };
        try {
          return await current.run({ tx, unit, turn: Promise.resolve() }, () => fn(tx));
        } finally {
          // Work the unit started and did not wait for goes to the database on its own afterwards.
          unit.open = false;
        }
      });
    },
  };
}
