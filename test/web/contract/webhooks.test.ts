import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { audited } from '../../helpers/audit.ts';
import { newId } from '../../../src/platform/ids.ts';
import { startPlatform, type TestPlatform } from '../../helpers/harness.ts';
import { csrfOf, invitedMember, partnerDashboard, WebClient } from '../../helpers/web.ts';

describe('dashboard webhook deliveries', () => {
  let p: TestPlatform;
  let owner: WebClient;
  let appId: string;
  let otherAppId: string;
  let other: WebClient;
  const dead: string[] = [];
  let sequence = 0;
  let delivered: string;
  let pending: string;
  let foreign: string;

  async function event(
    app: string,
    status: string,
    type = 'delivery.order.created',
    extra: { code?: number; error?: string } = {},
  ): Promise<string> {
    const id = newId('evt');
    await p.app.platform.db.query(
      `insert into outbox_events (id, app_id, environment, type, subject_id, sequence, payload, delivery_status, attempts, last_status_code, last_error)
       values ($1, $2, 'staging', $3, 'dlv_TEST', $9, $4::jsonb, $5, $6, $7, $8)`,
      [
        id,
        app,
        type,
        JSON.stringify({ order_reference: `ref-${id}`, note: '<b>bold</b>' }),
        status,
        status === 'pending' ? 0 : 3,
        extra.code ?? null,
        extra.error ?? null,
        ++sequence,
      ],
    );
    if (status !== 'pending') {
      for (let n = 1; n <= 3; n++) {
        await p.app.platform.db.query(
          `insert into webhook_attempts (event_id, attempt, url, status_code, latency_ms, error, response_excerpt, at)
           values ($1, $2, 'https://hooks.example.com/in', $3, 42, $4, $5, now())`,
          [
            id,
            n,
            status === 'dead' ? 500 : n === 3 ? 204 : 503,
            status === 'dead' ? 'HTTP 500' : null,
            status === 'dead' ? 'Internal <Error> excerpt' : '',
          ],
        );
      }
    }
    return id;
  }

  beforeAll(async () => {
    p = await startPlatform({ socket: false });
    ({ web: owner, appId } = await partnerDashboard(p));
    ({ web: other, appId: otherAppId } = await partnerDashboard(p, 'Kofi Foods', 'Kofi app'));
    dead.push(
      await event(appId, 'dead', 'delivery.order.created', { code: 500, error: 'HTTP 500' }),
    );
    dead.push(
      await event(appId, 'dead', 'delivery.order.cancelled', { code: 500, error: 'HTTP 500' }),
    );
    delivered = await event(appId, 'delivered', 'delivery.order.status_changed', { code: 204 });
    pending = await event(appId, 'pending');
    foreign = await event(otherAppId, 'dead', 'delivery.order.created', { code: 500 });
  });
  afterAll(async () => {
    await p?.close();
  });

  const base = () => `/dashboard/apps/${appId}/webhooks`;
  const status = async (id: string) =>
    (
      await p.app.platform.db.query<{ delivery_status: string }>(
        'select delivery_status from outbox_events where id = $1',
        [id],
      )
    )[0]!.delivery_status;

  it('lists the app’s deliveries, filters by status and type, pages by keyset', async () => {
    expect((await owner.get(`/dashboard/apps/${appId}`)).text).toContain(`href="${base()}"`);
    const all = await owner.get(base());
    expect(all.status).toBe(200);
    for (const id of [...dead, delivered, pending]) expect(all.text).toContain(id);
    expect(all.text).not.toContain(foreign);
    const deadOnly = await owner.get(`${base()}?status=dead`);
    expect(dead.every((id) => deadOnly.text.includes(id))).toBe(true);
    expect(deadOnly.text).not.toContain(delivered);
    const byType = await owner.get(`${base()}?type=delivery.order.cancelled`);
    expect(byType.text).toContain(dead[1]);
    expect(byType.text).not.toContain(dead[0]);
    // The start of a type matches every type under it; '_' is a letter here, not a wildcard.
    const byStart = await owner.get(`${base()}?type=delivery.order`);
    expect([...dead, delivered, pending].every((id) => byStart.text.includes(id))).toBe(true);
    expect((await owner.get(`${base()}?type=delivery.order.cancel_`)).text).not.toContain(dead[1]);
    // Keyset paging: 30 more events make a second page whose link keeps the filter.
    for (let i = 0; i < 30; i++) await event(appId, 'delivered', 'safe.order.paid');
    const first = await owner.get(`${base()}?status=delivered`);
    const next = /href="([^"]+before=evt_[0-9A-Z]{26})"/
      .exec(first.text)?.[1]
      ?.replace(/&amp;/g, '&');
    expect(next).toContain('status=delivered');
    const second = await owner.get(next!);
    expect(second.status).toBe(200);
    expect(second.text).toContain(delivered);
    expect(first.text).not.toContain(delivered);
  });

  it('shows an event’s attempts (status code, excerpt, error, duration) and its payload, escaped', async () => {
    const page = await owner.get(`${base()}/${dead[0]}`);
    expect(page.status).toBe(200);
    expect(page.text).toContain('Internal &lt;Error&gt; excerpt');
    expect(page.text).toContain('42 ms');
    expect(page.text).toContain('HTTP 500');
    expect(page.text).toContain(`ref-${dead[0]}`);
    expect(page.text).toContain('&lt;b&gt;bold&lt;/b&gt;');
    expect(page.text).not.toContain('<b>bold</b>');
    expect(page.text).toContain('Replay this delivery');
  });

  it('replays one: pending again and audited with the member as actor; a pending one is refused with a sentence', async () => {
    const page = await owner.get(`${base()}/${dead[0]}`);
    const res = await owner.post(`${base()}/${dead[0]}/replay`, { _csrf: csrfOf(page.text) });
    expect(res.status).toBe(200);
    expect(res.text).toContain(`Delivery ${dead[0]} queued again`);
    expect(await status(dead[0]!)).toBe('pending');
    const audit = (await audited(p, { action: 'webhook_delivery.replay' })).map((e) => ({
      actor_kind: e.actor.kind,
      target_id: e.target?.id,
    }));
    expect(audit).toEqual([{ actor_kind: 'member', target_id: dead[0] }]);
    const again = await owner.post(`${base()}/${pending}/replay`, { _csrf: csrfOf(page.text) });
    expect(again.status).toBe(400);
    expect(again.text).toContain('still pending');
  });

  it('a developer replays all dead of the app; finance reads but gets 403 on replay', async () => {
    const developer = await invitedMember(p, owner, 'developer');
    const finance = await invitedMember(p, owner, 'finance');
    const seen = await finance.get(`${base()}/${dead[1]}`);
    expect(seen.status).toBe(200);
    expect(seen.text).not.toContain('Replay this delivery');
    expect((await finance.get(base())).text).not.toContain('replay-dead');
    expect(
      (await finance.post(`${base()}/${dead[1]}/replay`, { _csrf: csrfOf(seen.text) })).status,
    ).toBe(403);
    expect((await finance.post(`${base()}/replay-dead`, { _csrf: csrfOf(seen.text) })).status).toBe(
      403,
    );
    expect(await status(dead[1]!)).toBe('dead');

    const list = await developer.get(base());
    const one = await event(appId, 'dead', 'wallet.topup.credited', { code: 500 });
    expect(
      (await developer.post(`${base()}/${one}/replay`, { _csrf: csrfOf(list.text) })).status,
    ).toBe(200);
    expect(await status(one)).toBe('pending');
    const res = await developer.post(`${base()}/replay-dead`, { _csrf: csrfOf(list.text) });
    expect(res.status).toBe(200);
    expect(res.text).toContain('1 dead delivery queued again');
    expect(await status(dead[1]!)).toBe('pending');
    const none = await developer.post(`${base()}/replay-dead`, { _csrf: csrfOf(list.text) });
    expect(none.text).toContain('No dead delivery to replay.');
    expect(await status(foreign)).toBe('dead');
    expect(
      (await audited(p, { action: 'webhook_delivery.replay', target_type: 'app' })).map(
        (e) => e.target,
      ),
    ).toEqual([{ type: 'app', id: appId }]);
  });

  it('keeps partners apart: another partner’s app or event answers 404, and replay changes nothing', async () => {
    const page = await other.get(`/dashboard/apps/${otherAppId}/webhooks`);
    expect(page.text).toContain(foreign);
    expect((await other.get(base())).status).toBe(404);
    expect((await other.get(`${base()}/${delivered}`)).status).toBe(404);
    // Its own app in the URL with partner A's event id: still 404.
    expect((await other.get(`/dashboard/apps/${otherAppId}/webhooks/${delivered}`)).status).toBe(
      404,
    );
    expect(
      (
        await other.post(`/dashboard/apps/${otherAppId}/webhooks/${delivered}/replay`, {
          _csrf: csrfOf(page.text),
        })
      ).status,
    ).toBe(404);
    expect(
      (await other.post(`${base()}/${delivered}/replay`, { _csrf: csrfOf(page.text) })).status,
    ).toBe(404);
    expect((await other.post(`${base()}/replay-dead`, { _csrf: csrfOf(page.text) })).status).toBe(
      404,
    );
    expect(await status(delivered)).toBe('delivered');
    expect((await owner.get(`${base()}/${newId('evt')}`)).status).toBe(404);
    // Signed out: the sign-in page, nothing shown.
    const anonymous = await new WebClient(p).get(`${base()}/${delivered}`);
    expect(anonymous.status).toBe(303);
    expect(anonymous.location).toMatch(/^\/sign-in\?next=/);
  });

  it('replays the chosen deliveries in one submit: checkboxes, a limit, only the partner’s own, audited once', async () => {
    const chosen = [
      await event(appId, 'dead', 'delivery.order.created', { code: 500 }),
      await event(appId, 'delivered', 'delivery.order.created', { code: 204 }),
    ];
    const stillPending = await event(appId, 'pending');
    const page = await owner.get(`${base()}?status=dead`);
    expect(page.text).toContain(`name="event" value="${chosen[0]}"`);
    expect(page.text).toContain(`action="${base()}/replay-selected"`);
    const token = csrfOf(page.text);
    const picks = (ids: string[]): Array<[string, string]> => [
      ['_csrf', token],
      ...ids.map((id): [string, string] => ['event', id]),
    ];
    const audits = async () => (await audited(p, { action: 'webhook_delivery.replay' })).length;
    const before = await audits();

    // Another partner's event among the chosen ones: 404 as if missing, and none of them is replayed.
    const mixed = await owner.post(`${base()}/replay-selected`, picks([chosen[0]!, foreign]));
    expect(mixed.status).toBe(404);
    expect(await status(chosen[0]!)).toBe('dead');
    expect(await status(foreign)).toBe('dead');
    // Through the other partner's own app URL: the same.
    expect(
      (
        await other.post(`/dashboard/apps/${otherAppId}/webhooks/replay-selected`, [
          ['_csrf', csrfOf((await other.get(`/dashboard/apps/${otherAppId}/webhooks`)).text)],
          ['event', chosen[0]!],
        ])
      ).status,
    ).toBe(404);
    expect(await status(chosen[0]!)).toBe('dead');
    // Nothing chosen; more than a page's worth; a malformed id.
    const none = await owner.post(`${base()}/replay-selected`, picks([]));
    expect(none.status).toBe(400);
    expect(none.text).toContain('Choose at least one delivery');
    const tooMany = await owner.post(
      `${base()}/replay-selected`,
      picks(Array.from({ length: 26 }, () => chosen[0]!)),
    );
    expect(tooMany.status).toBe(400);
    expect(tooMany.text).toContain('at most 25 at once');
    expect((await owner.post(`${base()}/replay-selected`, picks(['evt_%00']))).status).toBe(404);
    expect(
      (await owner.post(`${base()}/replay-selected`, picks([`${chosen[0]}\u0000`]))).status,
    ).toBe(400);
    expect(await audits()).toBe(before);

    const res = await owner.post(
      `${base()}/replay-selected`,
      picks([...chosen, stillPending, chosen[0]!]),
    );
    expect(res.status).toBe(200);
    expect(res.text).toContain('2 deliveries queued again');
    expect(res.text).toContain(`1 still pending (left on its schedule): ${stillPending}`);
    expect(await status(chosen[0]!)).toBe('pending');
    expect(await status(chosen[1]!)).toBe('pending');
    const entry = (await audited(p, { action: 'webhook_delivery.replay' })).at(-1);
    expect(entry).toMatchObject({ actor: { kind: 'member' }, target: { id: appId } });
    expect([...entry!.after.replayed].sort()).toEqual([...chosen].sort());

    // Finance sees no checkboxes and is refused.
    const finance = await invitedMember(p, owner, 'finance');
    const seen = await finance.get(base());
    expect(seen.text).not.toContain('replay-selected');
    expect(
      (
        await finance.post(`${base()}/replay-selected`, [
          ['_csrf', csrfOf(seen.text)],
          ['event', chosen[0]!],
        ])
      ).status,
    ).toBe(403);
  });

  it('refuses a replay without the CSRF token or from another site', async () => {
    const page = await owner.get(`${base()}/${delivered}`);
    expect((await owner.post(`${base()}/${delivered}/replay`, {})).status).toBe(403);
    expect(
      (await owner.post(`${base()}/${delivered}/replay`, { _csrf: 'x'.repeat(43) })).status,
    ).toBe(403);
    expect(
      (
        await owner.post(
          `${base()}/${delivered}/replay`,
          { _csrf: csrfOf(page.text) },
          { origin: 'https://evil.example' },
        )
      ).status,
    ).toBe(403);
    expect(await status(delivered)).toBe('delivered');
  });

  it('answers hostile query values and ids with 4xx, never 5xx', async () => {
    const hostile = [
      '\u0000',
      '%00',
      '\u0001\u001f',
      'x'.repeat(20_000),
      "' or 1=1 --",
      '\u202e',
      '%ZZ',
      `evt_${'A'.repeat(26)}\u0000`,
    ];
    for (const v of hostile) {
      const enc = v.startsWith('%') ? v : encodeURIComponent(v);
      for (const q of ['status', 'type', 'before']) {
        const res = await owner.get(`${base()}?${q}=${enc}`);
        expect(res.status, `${q}=${JSON.stringify(v.slice(0, 20))}`).toBeGreaterThanOrEqual(400);
        expect(res.status).toBeLessThan(500);
      }
      const byId = await owner.get(`${base()}/${enc}`);
      expect(byId.status).toBeGreaterThanOrEqual(400);
      expect(byId.status).toBeLessThan(500);
      const app = await owner.get(`/dashboard/apps/${enc}/webhooks`);
      expect(app.status).toBeGreaterThanOrEqual(400);
      expect(app.status).toBeLessThan(500);
    }
    const repeated = await owner.get(`${base()}?status=dead&status=pending`);
    expect(repeated.status).toBe(400);
  });
});
