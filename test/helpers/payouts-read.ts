import type { TestPlatform } from './harness.ts';

/** One payout as operators read it (GET /admin/v1/payouts, GET /admin/v1/payouts/:payout_id): amounts in pesewas and GHS. */
export type OperatorPayout = Record<string, any> & {
  id: string;
  run_id: string;
  payee: string;
  status: string;
  replaced_by: string | null;
};

/** The list's page: fewer payouts than this are all that match. */
const LISTED = 100;

/**
 * Tests read payouts as finance operators do, not from the payouts table: every payout matching
 * the filter (GET /admin/v1/payouts), newest first.
 */
export async function listedPayouts(
  p: Pick<TestPlatform, 'admin'>,
  filter: { payee?: string; run_id?: string; status?: string },
): Promise<OperatorPayout[]> {
  const res = await p.admin('GET', `/payouts?${new URLSearchParams(filter)}`);
  if (res.status !== 200)
    throw new Error(`GET /payouts: ${res.status} ${JSON.stringify(res.body)}`);
  const data = res.body.data as OperatorPayout[];
  if (data.length >= LISTED) throw new Error('more payouts match than GET /payouts lists at once');
  return data;
}

/** One payout (GET /admin/v1/payouts/:payout_id). */
export async function operatorPayout(
  p: Pick<TestPlatform, 'admin'>,
  id: string,
): Promise<OperatorPayout> {
  const res = await p.admin('GET', `/payouts/${id}`);
  if (res.status !== 200) throw new Error(`GET /payouts/${id}: ${res.status}`);
  return res.body as OperatorPayout;
}

/** Every payout run (GET /admin/v1/payouts/runs), newest first. */
export async function listedRuns(p: Pick<TestPlatform, 'admin'>): Promise<Array<{ id: string }>> {
  const res = await p.admin('GET', '/payouts/runs');
  if (res.status !== 200) throw new Error(`GET /payouts/runs: ${res.status}`);
  const data = res.body.data as Array<{ id: string }>;
  // The list shows the newest 50 runs: fewer are all of them.
  if (data.length >= 50) throw new Error('more payout runs than GET /payouts/runs lists at once');
  return data;
}

/** The runs a courier cash handover started (the payouts module's face: operators' list does not name handovers). */
export async function runsAfterHandover(
  p: Pick<TestPlatform, 'app'>,
  handoverId: string,
): Promise<Array<{ id: string }>> {
  const runs = await p.app.platform.payouts.service.runs(1000);
  if (runs.length >= 1000) throw new Error('more payout runs than one read shows');
  return runs.filter((r) => r.handover_id === handoverId);
}

/** Where a payee (`vendor:<id>`, `partner:<id>`, `courier:<id>`) is paid, as operators see it (GET /admin/v1/payees/:kind/:id); null when it has none. */
export async function payeeDestination(
  p: Pick<TestPlatform, 'admin'>,
  payee: string,
): Promise<(Record<string, any> & { number: string; name: string }) | null> {
  const [kind, id] = payee.split(':');
  const res = await p.admin('GET', `/payees/${kind}/${id}`);
  if (res.status !== 200) throw new Error(`GET /payees/${kind}/${id}: ${res.status}`);
  return res.body.destination;
}
