import type { FastifyInstance, FastifyReply } from 'fastify';
import { MOBILE_NETWORKS, type ActivationInput } from '../../modules/activation/index.ts';
import { MONEY_SCOPES } from '../../platform/auth/scopes.ts';
import { isAppError, type ErrorDetail } from '../../platform/errors.ts';
import { WebRefusal, type Member, type WebKit } from './kit.ts';
import { definePage } from '../../platform/web/page.ts';
import { isId } from '../../platform/ids.ts';

/** Scopes a production key may be given on this page: each named, money scopes included only when ticked. */
const PRODUCTION_SCOPES = [
  'delivery:read',
  'delivery:write',
  'safe:read',
  ...MONEY_SCOPES,
] as const;

/** The form's fields (flat, as HTML sends them); each is bounded before the domain checks it. */
const FIELDS = {
  business_name: { max: 300, label: 'Registered business name' },
  registration_number: { max: 300, label: 'Registration number' },
  director_ghana_card: { max: 300, label: "Director's Ghana Card number" },
  settlement_kind: { max: 20, label: 'Settlement account' },
  momo_network: { max: 20, label: 'Mobile money network' },
  momo_number: { max: 40, label: 'Mobile money number' },
  bank_code: { max: 40, label: 'Bank code' },
  account_number: { max: 40, label: 'Account number' },
  account_name: { max: 300, label: 'Account name' },
  digital_address: { max: 40, label: 'GhanaPostGPS address' },
  contact_phone: { max: 40, label: 'Contact phone' },
  intent: { max: 10 },
} as const;
type Form = Record<keyof typeof FIELDS, string>;

/** The form as the activation service takes it: an empty field is "not given yet" (a draft may be partial). */
function toInput(f: Form): ActivationInput {
  const opt = (v: string) => (v.trim() === '' ? null : v);
  const settlement =
    f.settlement_kind === 'mobile_money'
      ? { kind: 'mobile_money', network: f.momo_network, number: f.momo_number }
      : f.settlement_kind === 'bank'
        ? {
            kind: 'bank',
            bank_code: f.bank_code.trim().toUpperCase(),
            account_number: f.account_number.trim(),
            account_name: f.account_name,
          }
        : f.settlement_kind === ''
          ? null
          : { kind: f.settlement_kind };
  return {
    business_name: opt(f.business_name),
    registration_number: opt(f.registration_number),
    director_ghana_card:
      f.director_ghana_card.trim() === '' ? null : f.director_ghana_card.trim().toUpperCase(),
    settlement,
    digital_address: opt(f.digital_address),
    contact_phone: opt(f.contact_phone),
  };
}

/** What the template shows in the fields: the saved request, or what was just typed. */
function valuesOf(row: Record<string, unknown> | null): Record<string, string> {
  if (!row) return {};
  const s = (row.settlement ?? {}) as Record<string, string>;
  const text = (k: string) => (typeof row[k] === 'string' ? (row[k] as string) : '');
  return {
    business_name: text('business_name'),
    registration_number: text('registration_number'),
    director_ghana_card: text('director_ghana_card'),
    digital_address: text('digital_address'),
    contact_phone: text('contact_phone'),
    settlement_kind: s.kind ?? '',
    momo_network: s.network ?? '',
    momo_number: s.number ?? '',
    bank_code: s.bank_code ?? '',
    account_number: s.account_number ?? '',
    account_name: s.account_name ?? '',
  };
}

/** Field problems keyed by the form's field names, so each message sits under its input. */
function problemsByField(details: ErrorDetail[] | undefined): Record<string, string> {
  const map: Record<string, string> = {
    'settlement.kind': 'settlement_kind',
    'settlement.network': 'momo_network',
    'settlement.number': 'momo_number',
    'settlement.bank_code': 'bank_code',
    'settlement.account_number': 'account_number',
    'settlement.account_name': 'account_name',
    settlement: 'settlement_kind',
  };
  return Object.fromEntries((details ?? []).map((d) => [map[d.field] ?? d.field, d.issue]));
}

/**
 * The owner's side of production activation: fill in the form, save a draft, submit, read the
 * decision (and the reason of a rejection), edit and submit again; once approved, production keys.
 */
// biome-ignore lint/complexity/noExcessiveLinesPerFunction: a list of declarations, one per page or operation, each handler a few lines
export function registerActivationRoutes(app: FastifyInstance, web: WebKit): void {
  const { activation, accounts } = web.deps;

  async function show(
    reply: FastifyReply,
    m: Member,
    extra: Record<string, unknown> = {},
    status = 200,
  ) {
    const request = await activation.current(m.membership.partner_id);
    const partner = await accounts.getPartner(m.membership.partner_id);
    const apps = partner.production_active ? await accounts.listApps(partner.id) : [];
    return web.page(
      reply,
      'activation',
      {
        title: 'Production activation',
        request,
        partner,
        apps,
        networks: MOBILE_NETWORKS,
        scopes: PRODUCTION_SCOPES,
        values: valuesOf(request as unknown as Record<string, unknown> | null),
        problems: {},
        ...extra,
      },
      status,
    );
  }

  definePage(
    app,
    web,
    { method: 'GET', path: '/dashboard/activation', need: 'manage_team' },
    async ({ reply, actor: m }) => {
      return show(reply, m);
    },
  );

  definePage(
    app,
    web,
    { method: 'POST', path: '/dashboard/activation', need: 'manage_team', form: FIELDS },
    async ({ reply, actor: m, form: f }) => {
      const caller = { partnerId: m.membership.partner_id, memberId: m.member.id };
      try {
        await activation.saveDraft(caller, toInput(f));
        if (f.intent === 'submit') await activation.submit(caller);
      } catch (err) {
        if (!isAppError(err) || err.statusCode >= 500) throw err;
        const { intent: _, ...typed } = f;
        // Field problems are shown under their fields; the summary only points there.
        const error = err.details?.length
          ? 'Some fields need correcting: see the messages under them.'
          : err.message;
        return show(
          reply,
          m,
          { error, problems: problemsByField(err.details), values: typed },
          err.statusCode,
        );
      }
      return show(reply, m, {
        notice:
          f.intent === 'submit'
            ? 'Submitted: an operator will review it. We email the owners when it is decided.'
            : 'Draft saved.',
      });
    },
  );

  const KEY_FIELDS = Object.fromEntries([
    ['app_id', { max: 40, label: 'App' }],
    ...PRODUCTION_SCOPES.map((s) => [`scope_${s}`, { max: 3 }]),
  ]) as Record<string, { max: number }>;
  definePage(
    app,
    web,
    {
      method: 'POST',
      path: '/dashboard/activation/production-key',
      need: 'manage_team',
      form: KEY_FIELDS,
    },
    async ({ reply, actor: m, form: f }) => {
      const found = isId('app', f.app_id ?? '') ? await accounts.getApp(f.app_id!) : undefined;
      if (!found || found.partner_id !== m.membership.partner_id)
        throw new WebRefusal(404, 'There is no such app in your account.');
      const scopes = PRODUCTION_SCOPES.filter((s) => f[`scope_${s}`] === 'on');
      try {
        const key = await accounts.createKey(found.id, { environment: 'production', scopes });
        return show(reply, m, {
          shown: { apiKey: key.apiKey, signingSecret: key.signingSecret, app: found.name, scopes },
          notice: 'Production key created.',
        });
      } catch (err) {
        if (!isAppError(err) || err.statusCode >= 500) throw err;
        return show(reply, m, { keyError: err.message }, err.statusCode);
      }
    },
  );
}
