import type { Db, Queryable } from '../../src/platform/db/types.ts';

/** A node of PostgreSQL's JSON plan, with the fields the plan tests read. */
export interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  Plans?: PlanNode[];
}

/** The plan's nodes, the root first. */
export const nodes = (n: PlanNode): PlanNode[] => [n, ...(n.Plans ?? []).flatMap(nodes)];

/** A parameter written into the statement (EXECUTE inside EXPLAIN takes no bound parameters). */
const literal = (v: unknown) =>
  v === null
    ? 'null'
    : `'${(v instanceof Date ? v.toISOString() : String(v)).replaceAll("'", "''")}'`;

/**
 * A repository's statement explained instead of run: the same SQL and parameters, the plan's nodes
 * back (of the last statement `run` sends). `generic`: the plan PostgreSQL keeps for a prepared
 * statement after a few runs, made for any parameters (the driver prepares statements), as
 * `plan_cache_mode = force_generic_plan` makes it at once.
 */
export async function planOf(
  db: Pick<Db, 'transaction'>,
  run: (q: Queryable) => Promise<unknown>,
  { generic = false } = {},
): Promise<PlanNode[]> {
  let plan: PlanNode | undefined;
  await db.transaction(async (tx) => {
    if (generic) await tx.query('set local plan_cache_mode = force_generic_plan');
    const explaining = {
      ...tx,
      query: async <T>(sql: string, params: readonly unknown[] = []) => {
        const explain = 'explain (format json)';
        if (generic) await tx.query(`prepare explained_plan as ${sql}`);
        const rows = await tx.query<{ 'QUERY PLAN': [{ Plan: PlanNode }] | string }>(
          generic
            ? `${explain} execute explained_plan(${params.map(literal).join(', ')})`
            : `${explain} ${sql}`,
          generic ? [] : params,
        );
        if (generic) await tx.query('deallocate explained_plan');
        const raw = rows[0]!['QUERY PLAN'];
        plan = (typeof raw === 'string' ? JSON.parse(raw) : raw)[0].Plan;
        return [] as T[];
      },
    } as Queryable;
    await run(explaining);
  });
  return nodes(plan!);
}
