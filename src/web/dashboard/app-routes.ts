import type { FastifyInstance, FastifyReply } from 'fastify';
import { isAppError } from '../../platform/errors.ts';
import { WebRefusal, type Member, type WebKit } from './kit.ts';
import { definePage, idParam } from '../../platform/web/page.ts';

/** How long the previous webhook secret keeps signing after a rotation, so receivers can switch. */
const SECRET_OVERLAP_HOURS = 24;

/** Apps, their staging keys and their webhook endpoint, for owners and developers (others read). */
// biome-ignore lint/complexity/noExcessiveLinesPerFunction: a list of declarations, one per page or operation, each handler a few lines
export function registerAppRoutes(app: FastifyInstance, web: WebKit): void {
  const { accounts } = web.deps;

  /** The app if it belongs to the member's partner; any other app answers exactly like a missing one. */
  async function ownApp(m: Member, appId: string) {
    const found = await accounts.getApp(appId);
    if (!found || found.partner_id !== m.membership.partner_id)
      throw new WebRefusal(404, 'There is no such app in your account.');
    return found;
  }

  async function appPage(
    reply: FastifyReply,
    m: Member,
    appId: string,
    extra: Record<string, unknown> = {},
    status = 200,
  ) {
    const found = await ownApp(m, appId);
    const keys = await accounts.listKeys(found.id);
    return web.page(
      reply,
      'app',
      { title: found.name, app: found, keys, canManage: m.membership.role !== 'finance', ...extra },
      status,
    );
  }

  /** Runs a change; a problem the member can fix is shown on the app page instead. */
  async function change(
    reply: FastifyReply,
    m: Member,
    appId: string,
    action: () => Promise<Record<string, unknown>>,
  ) {
    try {
      return await appPage(reply, m, appId, await action());
    } catch (err) {
      if (isAppError(err) && err.statusCode < 500)
        return appPage(reply, m, appId, { error: err.message }, err.statusCode);
      throw err;
    }
  }

  definePage(
    app,
    web,
    { method: 'GET', path: '/dashboard/apps', need: 'view' },
    async ({ reply, actor: m }) => {
      const apps = await accounts.listApps(m.membership.partner_id);
      return web.page(reply, 'apps', {
        title: 'Apps',
        apps,
        canManage: m.membership.role !== 'finance',
      });
    },
  );

  definePage(
    app,
    web,
    {
      method: 'POST',
      path: '/dashboard/apps',
      need: 'manage_apps',
      form: { name: { max: 100, label: 'App name' } },
    },
    async ({ reply, actor: m, form: f }) => {
      const name = f.name.trim();
      if (!name) {
        const apps = await accounts.listApps(m.membership.partner_id);
        return web.page(
          reply,
          'apps',
          { title: 'Apps', apps, canManage: true, error: 'Enter a name for the app.' },
          400,
        );
      }
      const created = await accounts.createApp(m.membership.partner_id, { name });
      return appPage(reply, m, created.app.id, {
        shown: { webhookSecret: created.webhookSecret },
        notice: `App “${name}” created.`,
      });
    },
  );

  definePage(
    app,
    web,
    {
      method: 'GET',
      path: '/dashboard/apps/:appId',
      params: { appId: idParam('app', 'There is no such app in your account.') },
      need: 'view',
    },
    async ({ request, reply, actor: m }) => {
      return appPage(reply, m, request.params.appId);
    },
  );

  definePage(
    app,
    web,
    {
      method: 'POST',
      path: '/dashboard/apps/:appId/keys',
      params: { appId: idParam('app', 'There is no such app in your account.') },
      need: 'manage_apps',
    },
    async ({ request, reply, actor: m }) => {
      await ownApp(m, request.params.appId);
      return change(reply, m, request.params.appId, async () => {
        const key = await accounts.createKey(request.params.appId, {
          environment: 'staging',
          scopes: ['*'],
        });
        return {
          shown: { apiKey: key.apiKey, signingSecret: key.signingSecret },
          notice: 'Staging key created.',
        };
      });
    },
  );

  definePage(
    app,
    web,
    {
      method: 'POST',
      path: '/dashboard/apps/:appId/keys/:keyId/revoke',
      params: {
        appId: idParam('app', 'There is no such app in your account.'),
        keyId: idParam('key', 'There is no such key on this app.'),
      },
      need: 'manage_apps',
    },
    async ({ request, reply, actor: m }) => {
      await ownApp(m, request.params.appId);
      const keys = await accounts.listKeys(request.params.appId);
      if (!keys.some((k) => k.id === request.params.keyId))
        throw new WebRefusal(404, 'There is no such key on this app.');
      await accounts.revokeKey(request.params.keyId);
      return appPage(reply, m, request.params.appId, {
        notice: 'Key revoked: requests signed with it are refused from now on.',
      });
    },
  );

  definePage(
    app,
    web,
    {
      method: 'POST',
      path: '/dashboard/apps/:appId/webhook',
      params: { appId: idParam('app', 'There is no such app in your account.') },
      need: 'manage_apps',
      form: { webhook_url: { max: 2048, label: 'Webhook URL' } },
    },
    async ({ request, reply, actor: m, form: f }) => {
      await ownApp(m, request.params.appId);
      const url = f.webhook_url.trim();
      return change(reply, m, request.params.appId, async () => {
        await accounts.updateApp(request.params.appId, { webhook_url: url === '' ? null : url });
        return {
          notice: url === '' ? 'Webhook URL removed: no events are sent.' : 'Webhook URL saved.',
        };
      });
    },
  );

  definePage(
    app,
    web,
    {
      method: 'POST',
      path: '/dashboard/apps/:appId/webhook-secret',
      params: { appId: idParam('app', 'There is no such app in your account.') },
      need: 'manage_apps',
    },
    async ({ request, reply, actor: m }) => {
      await ownApp(m, request.params.appId);
      const rotated = await accounts.rotateWebhookSecret(
        request.params.appId,
        SECRET_OVERLAP_HOURS,
        new Date(),
      );
      return appPage(reply, m, request.params.appId, {
        shown: { webhookSecret: rotated.webhook_secret },
        notice: `Webhook secret rotated. The previous one keeps signing until ${rotated.previous_secret_valid_until.replace('T', ' ').slice(0, 16)} UTC.`,
      });
    },
  );
}
