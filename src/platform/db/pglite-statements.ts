import { type PGlite, parse, protocol } from '@electric-sql/pglite';
import { MAX_PREPARED, transactionEnd } from './types.ts';

type BackendMessage = Awaited<ReturnType<PGlite['execProtocolStream']>>[number];

interface Prepared {
  name: string;
  /** The parameters' type oids, for PGlite's serialisers. */
  paramTypes: number[];
  /** The statement's row description (absent for one that returns no rows): every run's rows follow it. */
  described?: BackendMessage;
}

const { serialize } = protocol;

/** A prepared statement gone stale: its result type changed (0A000), or the session dropped it (26000). */
const STALE = new Set(['0A000', '26000']);

/** Runs a parameterised statement prepared (undefined past the cap), holding the locks it needs. */
export type RunPrepared = <T>(sql: string, params: readonly unknown[]) => Promise<T[] | undefined>;

function joined(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/**
 * Named prepared statements on PGlite's session, as the PostgreSQL adapter has on each connection.
 * PGlite's own `query` sends every statement unnamed, so PostgreSQL parses and plans it again on each
 * call: planning was over half of orders.track's statement (0.47 of 0.85 ms). Here a parameterised
 * statement is parsed and described once per database, and each call is one round into the engine
 * (bind, execute, sync), holding PGlite's locks as its `query` does. Beyond the cap, statements go
 * unnamed as before.
 *
 * The names are this database's: an engine lent to the next test app is given back after
 * `discard all`, which drops them with the rest of the session.
 */
export function preparedStatements(pg: PGlite) {
  const statements = new Map<string, Prepared>();
  // Names only ever increase: a forgotten statement's name may still be allocated in the session.
  let named = 0;
  // Statements forgotten since the last prepare, closed in front of the next one.
  let forgotten: string[] = [];

  async function prepare(text: string): Promise<Prepared> {
    const name = `pp${named++}`;
    const answer = await pg.execProtocolStream(
      joined([
        ...forgotten.map((old) => serialize.close({ type: 'S', name: old })),
        serialize.parse({ name, text }),
        serialize.describe({ type: 'S', name }),
        serialize.sync(),
      ]),
      { syncToFs: false },
    );
    forgotten = [];
    const prepared: Prepared = {
      name,
      paramTypes: parse.parseDescribeStatementResults(answer),
      described: answer.find((m) => m.name === 'rowDescription'),
    };
    statements.set(text, prepared);
    return prepared;
  }

  function value(v: unknown, type: number | undefined): string | null {
    if (v === null || v === undefined) return null;
    const serializer = type === undefined ? undefined : pg.serializers[type];
    return serializer ? serializer(v) : String(v);
  }

  /**
   * Rows of a parameterised statement, or undefined when the cap leaves it unnamed. A statement
   * whose result shape changed under it (DDL: 0A000) or that the session no longer has (26000)
   * is forgotten, and prepared again: at once when nothing else is in the transaction (`again`),
   * else on the next call, as the error has ended the transaction anyway.
   */
  async function rows<T>(
    text: string,
    params: readonly unknown[],
    again: boolean,
  ): Promise<T[] | undefined> {
    let prepared = statements.get(text);
    if (!prepared) {
      if (statements.size >= MAX_PREPARED) return undefined;
      prepared = await prepare(text);
    }
    const { name, paramTypes, described } = prepared;
    const values = params.map((v, i) => value(v, paramTypes[i]));
    let answer: BackendMessage[];
    try {
      answer = await pg.execProtocolStream(
        joined([
          serialize.bind({ statement: name, values }),
          serialize.execute({}),
          serialize.sync(),
        ]),
        { syncToFs: false },
      );
    } catch (err) {
      if (!STALE.has((err as { code?: string }).code ?? '')) throw err;
      statements.delete(text);
      forgotten.push(name);
      if (again) return rows<T>(text, params, false);
      throw err;
    }
    const results = parse.parseResults(described ? [described, ...answer] : answer, pg.parsers);
    return results[0]!.rows as T[];
  }

  return {
    /** Outside a transaction: waits for any transaction, then writes to the data directory. */
    alone: (<T>(sql: string, params: readonly unknown[]) =>
      pg._runExclusiveTransaction(() =>
        pg._runExclusiveQuery(async () => {
          const found = await rows<T>(sql, params, true);
          if (found) await pg.syncToFs();
          return found;
        }),
      )) as RunPrepared,
    /** One transaction's (which holds the session; its commit writes), refused once ended. */
    inTransaction(): { run: RunPrepared; end: () => void } {
      const { refuseIfEnded, end } = transactionEnd();
      return {
        run: async <T>(sql: string, params: readonly unknown[]) => {
          refuseIfEnded();
          return pg._runExclusiveQuery(() => rows<T>(sql, params, false));
        },
        end,
      };
    },
  };
}
