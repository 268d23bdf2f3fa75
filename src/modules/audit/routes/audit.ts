import { Type } from '@sinclair/typebox';
import { defineAdminRoute } from '../../../platform/http/admin.ts';
import { Id, NonEmptyString, StringEnum, strictObject } from '../../../platform/http/schemas.ts';
import type { AuditRow } from '../repository.ts';
import type { AuditLog } from '../service.ts';

export function auditView(e: AuditRow) {
  return {
    audit_id: e.id,
    at: e.at.toISOString(),
    actor: { kind: e.actor_kind, id: e.actor_id },
    action: e.action,
    target: e.target_type ? { type: e.target_type, id: e.target_id } : null,
    before: e.before,
    after: e.after,
    ip: e.ip,
    user_agent: e.user_agent,
  };
}

const DateTime = Type.String({ format: 'date-time' });

export const auditRoutes = (audit: AuditLog) => [
  defineAdminRoute({
    method: 'GET',
    url: '/audit',
    summary: 'Search the audit log, newest first (filters combine; page with `cursor`)',
    roles: ['admin'],
    querystring: strictObject({
      actor_id: Type.Optional(NonEmptyString(100)),
      actor_kind: Type.Optional(StringEnum(['operator', 'admin_token', 'member', 'system'])),
      action: Type.Optional(NonEmptyString(100)),
      target_type: Type.Optional(NonEmptyString(64)),
      target_id: Type.Optional(Id),
      from: Type.Optional(DateTime),
      to: Type.Optional(DateTime),
      cursor: Type.Optional(
        Type.String({ minLength: 1, maxLength: 200, pattern: '^[A-Za-z0-9_-]+$' }),
      ),
      limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 200, default: 50 })),
    }),
    handler: async ({ query }) => {
      const page = await audit.search({
        actorId: query.actor_id,
        actorKind: query.actor_kind,
        action: query.action,
        targetType: query.target_type,
        targetId: query.target_id,
        from: query.from ? new Date(query.from) : undefined,
        to: query.to ? new Date(query.to) : undefined,
        cursor: query.cursor,
        limit: query.limit ?? 50,
      });
      return { body: { entries: page.entries.map(auditView), next_cursor: page.nextCursor } };
    },
  }),
];
