import type { FastifyInstance, FastifyReply } from 'fastify';
import {
  LANGUAGES,
  MESSAGE_KINDS,
  SENDER_NAME_RULE,
  type MessageKind,
} from '../../modules/messages/index.ts';
import { isAppError } from '../../platform/errors.ts';
import { formatGhs } from '../../platform/money.ts';
import { definePage, idParam } from '../../platform/web/page.ts';
import { WebRefusal, type DashboardMessages, type Member, type WebKit } from './kit.ts';

const TITLES: Record<MessageKind, string> = {
  assigned:
    'A courier took the order: the delivery code, the tracking link and the courier’s first name',
  courier_near: 'The courier is near (500 m or 4 minutes from the drop-off, once)',
  delivered: 'The parcel was delivered',
  delivery_failed: 'A delivery attempt failed',
};
const LANGUAGE_NAMES = { en: 'English', tw: 'Twi', ga: 'Ga' } as const;
const APP_MISSING = 'There is no such app in your account.';

/**
 * The texts an app's recipients receive (`/dashboard/apps/{id}/messages`): which go, the sender name
 * and the language, saved through the messages module as `delivery.messages.settings.update` saves them.
 */
export function registerMessagesRoutes(
  app: FastifyInstance,
  web: WebKit,
  deps: DashboardMessages | undefined,
): void {
  if (!deps) return;
  const { accounts } = web.deps;

  /** The app if it belongs to the member's partner; any other app answers exactly like a missing one. */
  async function ownApp(m: Member, appId: string) {
    const found = await accounts.getApp(appId);
    if (!found || found.partner_id !== m.membership.partner_id)
      throw new WebRefusal(404, APP_MISSING);
    return found;
  }

  async function page(reply: FastifyReply, m: Member, appId: string, extra = {}, status = 200) {
    const found = await ownApp(m, appId);
    const p = await deps!.service.preferences(appId);
    return web.page(
      reply,
      'messages-settings',
      {
        title: `Texts to recipients · ${found.name}`,
        app: found,
        kinds: MESSAGE_KINDS.map((k) => ({ value: k, title: TITLES[k], on: p.kinds[k] })),
        senderName: p.senderName ?? '',
        languages: LANGUAGES.map((l) => ({
          value: l,
          name: LANGUAGE_NAMES[l],
          on: l === p.language,
        })),
        senderRule: SENDER_NAME_RULE,
        smsPrice: formatGhs(deps!.prices.smsPesewasPerSegment),
        whatsappPrice: formatGhs(deps!.prices.whatsappPesewas),
        free: deps!.prices.smsPesewasPerSegment === 0 && deps!.prices.whatsappPesewas === 0,
        canManage: m.membership.role !== 'finance',
        ...extra,
      },
      status,
    );
  }

  const params = { appId: idParam('app', APP_MISSING) };
  definePage(
    app,
    web,
    { method: 'GET', path: '/dashboard/apps/:appId/messages', params, need: 'view' },
    async ({ request, reply, actor: m }) => page(reply, m, request.params.appId),
  );

  definePage(
    app,
    web,
    {
      method: 'POST',
      path: '/dashboard/apps/:appId/messages',
      params,
      need: 'manage_apps',
      form: {
        kind: { max: 20, label: 'Texts', repeated: { maxCount: MESSAGE_KINDS.length } },
        sender_name: { max: 64, label: 'Sender name' },
        language: { max: 2, label: 'Language' },
      },
    },
    async ({ request, reply, actor: m, form: f }) => {
      const appId = request.params.appId;
      await ownApp(m, appId);
      if (f.kind.some((k) => !(MESSAGE_KINDS as readonly string[]).includes(k)))
        throw new WebRefusal(400, 'Unknown text.');
      try {
        await deps!.service.setPreferences(appId, {
          kinds: Object.fromEntries(MESSAGE_KINDS.map((k) => [k, f.kind.includes(k)])),
          senderName: f.sender_name.trim() || null,
          language: f.language,
        });
      } catch (err) {
        if (!isAppError(err) || err.statusCode >= 500) throw err;
        return page(reply, m, appId, { error: err.message }, err.statusCode);
      }
      return page(reply, m, appId, { notice: 'Saved.' });
    },
  );
}
