import type { FastifyInstance } from 'fastify';
import { isRole, ROLES } from '../../modules/members/index.ts';
import { isAppError } from '../../platform/errors.ts';
import { WebRefusal, type Member, type WebKit } from './kit.ts';
import { overviewCharts } from './overview-charts.ts';
import { definePage, idParam } from '../../platform/web/page.ts';

/** The overview and the team (owners manage it); the wallet is in wallet.ts. */
// biome-ignore lint/complexity/noExcessiveLinesPerFunction: a list of declarations, one per page or operation, each handler a few lines
export function registerTeamRoutes(app: FastifyInstance, web: WebKit): void {
  const { accounts, members, sessions } = web.deps;

  definePage(
    app,
    web,
    { method: 'GET', path: '/dashboard', need: 'view' },
    async ({ reply, actor: m }) => {
      // Three reads of the member's partner, none needing another's answer: side by side.
      const [partner, apps, charts] = await Promise.all([
        accounts.getPartner(m.membership.partner_id),
        accounts.listApps(m.membership.partner_id),
        overviewCharts(web, m),
      ]);
      return web.page(reply, 'overview', {
        title: partner.name,
        partner,
        apps,
        role: m.membership.role,
        ...charts,
      });
    },
  );

  async function teamPage(m: Member, extra: Record<string, unknown> = {}) {
    const team = await members.team(m.membership.partner_id);
    return { title: 'Team', team, roles: ROLES, myId: m.member.id, ...extra };
  }

  definePage(
    app,
    web,
    { method: 'GET', path: '/dashboard/team', need: 'manage_team' },
    async ({ reply, actor: m }) => {
      return web.page(reply, 'team', await teamPage(m));
    },
  );

  /** Runs a team change; a refused one (last owner, bad email) is shown on the team page. */
  async function change(
    m: Member,
    reply: Parameters<WebKit['page']>[0],
    action: () => Promise<string>,
  ) {
    try {
      const notice = await action();
      return web.page(reply, 'team', await teamPage(m, { notice }));
    } catch (err) {
      if (isAppError(err) && err.statusCode < 500)
        return web.page(reply, 'team', await teamPage(m, { error: err.message }), err.statusCode);
      throw err;
    }
  }

  definePage(
    app,
    web,
    {
      method: 'POST',
      path: '/dashboard/team/invite',
      need: 'manage_team',
      form: { email: { max: 254, label: 'Email' }, role: { max: 20, label: 'Role' } },
    },
    async ({ reply, actor: m, form: f }) => {
      if (!isRole(f.role)) throw new WebRefusal(400, 'Choose a role: owner, developer or finance.');
      const role = f.role;
      return change(m, reply, async () => {
        await members.invite(m.membership.partner_id, f.email, role);
        return `Invitation sent to ${f.email.trim()}.`;
      });
    },
  );

  definePage(
    app,
    web,
    {
      method: 'POST',
      path: '/dashboard/team/:memberId/role',
      params: { memberId: idParam('mbr', 'This person is not in your team.') },
      need: 'manage_team',
      form: { role: { max: 20, label: 'Role' } },
    },
    async ({ request, reply, actor: m, form: f }) => {
      if (!isRole(f.role)) throw new WebRefusal(400, 'Choose a role: owner, developer or finance.');
      const role = f.role;
      return change(m, reply, async () => {
        await members.changeRole(m.membership.partner_id, request.params.memberId, role);
        return 'Role changed.';
      });
    },
  );

  definePage(
    app,
    web,
    {
      method: 'POST',
      path: '/dashboard/team/:memberId/remove',
      params: { memberId: idParam('mbr', 'This person is not in your team.') },
      need: 'manage_team',
    },
    async ({ request, reply, actor: m }) => {
      return change(m, reply, async () => {
        await members.removeMember(m.membership.partner_id, request.params.memberId);
        // Their open sessions end with their place in the team.
        await sessions.endAllFor({ kind: 'member', id: request.params.memberId });
        return 'Removed from the team.';
      });
    },
  );
}
