// Tests read the audit log as an auditor does: through the operator API, not the table.
import type { TestPlatform } from './harness.ts';

/** One entry as `GET /admin/v1/audit` answers it. */
export interface AuditView {
  audit_id: string;
  at: string;
  actor: { kind: string; id: string };
  action: string;
  target: { type: string; id: string | null } | null;
  before: any;
  after: any;
  ip: string | null;
  user_agent: string | null;
}

interface AuditPage {
  entries: AuditView[];
  next_cursor: string | null;
}

export interface AuditFilter {
  action?: string;
  target_id?: string;
  actor_id?: string;
  actor_kind?: string;
  target_type?: string;
}

/** Every entry matching `filter`, all pages of `GET /admin/v1/audit`, oldest first. */
export async function audited(
  p: Pick<TestPlatform, 'admin'>,
  filter: AuditFilter = {},
): Promise<AuditView[]> {
  const entries: AuditView[] = [];
  let cursor: string | null = null;
  do {
    const query: URLSearchParams = new URLSearchParams({
      ...Object.fromEntries(Object.entries(filter).filter(([, v]) => v !== undefined)),
      limit: '200',
      ...(cursor ? { cursor } : {}),
    });
    const res: { status: number; body: AuditPage } = await p.admin('GET', `/audit?${query}`);
    if (res.status !== 200) {
      throw new Error(`GET /audit answered ${res.status}: ${JSON.stringify(res.body)}`);
    }
    entries.push(...res.body.entries);
    cursor = res.body.next_cursor;
  } while (cursor);
  return entries.reverse();
}
