import type { Actor, RequestOrigin } from '../../platform/auth/actor.ts';
import type { Db, Queryable } from '../../platform/db/index.ts';
import { errors } from '../../platform/errors.ts';
import { newSequentialId } from '../../platform/ids.ts';
import { redactSecrets } from './domain/redact.ts';
import { auditRepository as repo, type AuditFilter, type AuditRow } from './repository.ts';

export interface AuditEntry {
  actor: Actor;
  /** e.g. `partner.update`, `activation.approve`. */
  action: string;
  target?: { type: string; id: string } | null;
  before?: unknown;
  after?: unknown;
  origin?: RequestOrigin;
}

/** An opaque cursor for the next page: the last entry's time and id. */
export function encodeCursor(row: Pick<AuditRow, 'at' | 'id'>): string {
  return Buffer.from(`${row.at.toISOString()}|${row.id}`).toString('base64url');
}

function decodeCursor(cursor: string): { at: Date; id: string } {
  const [at, id] = Buffer.from(cursor, 'base64url').toString('utf8').split('|');
  const when = new Date(at ?? '');
  if (!id || Number.isNaN(when.getTime()))
    throw errors.validation('The cursor is not one this API gave out.', [
      { field: 'cursor', issue: 'must be a next_cursor value' },
    ]);
  return { at: when, id };
}

/**
 * The audit log: append-only (the table refuses updates and deletes), secrets redacted before
 * anything is written. `record` joins the caller's transaction when given one.
 */
export class AuditLog {
  constructor(
    private readonly db: Db,
    private readonly clock: () => number,
  ) {}

  async record(entry: AuditEntry, tx: Queryable = this.db): Promise<void> {
    const at = this.clock();
    await repo.insert(tx, {
      // Entries of one millisecond list newest first by id, so theirs follow their order of writing.
      id: newSequentialId('aud', at),
      at: new Date(at),
      actor_kind: entry.actor.kind,
      actor_id: entry.actor.id,
      action: entry.action,
      target_type: entry.target?.type ?? null,
      target_id: entry.target?.id ?? null,
      before: redactSecrets(entry.before),
      after: redactSecrets(entry.after),
      ip: entry.origin?.ip ?? null,
      user_agent: entry.origin?.userAgent ?? null,
    });
  }

  async search(
    filter: Omit<AuditFilter, 'before'> & { cursor?: string },
  ): Promise<{ entries: AuditRow[]; nextCursor: string | null }> {
    const { cursor, ...rest } = filter;
    const entries = await repo.search(this.db, {
      ...rest,
      ...(cursor ? { before: decodeCursor(cursor) } : {}),
    });
    return {
      entries,
      nextCursor: entries.length === filter.limit ? encodeCursor(entries.at(-1)!) : null,
    };
  }
}
