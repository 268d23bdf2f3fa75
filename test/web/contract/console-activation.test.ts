import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { audited } from '../../helpers/audit.ts';
import { consoleSignIn, enrolledOperator } from '../../helpers/console.ts';
import { startPlatform, type TestPlatform } from '../../helpers/harness.ts';
import { mailTo } from '../../helpers/outbox-read.ts';
import { csrfOf, mailSettled, newEmail, verifiedOwner, type WebClient } from '../../helpers/web.ts';

const STEP = 30_000;
const FORM = {
  business_name: 'Adwoa Bakery Ltd',
  registration_number: 'CS123456789',
  director_ghana_card: 'GHA-123456789-0',
  settlement_kind: 'mobile_money',
  momo_network: 'MTN',
  momo_number: '024 412 3456',
  bank_code: '',
  account_number: '',
  account_name: '',
  digital_address: 'GA-183-8164',
  contact_phone: '0302 123 456',
};

/** Fills in and submits the activation form as the owner; answers the request's id. */
async function submitted(p: TestPlatform, owner: WebClient): Promise<string> {
  const res = await owner.submit('/dashboard/activation', '/dashboard/activation', {
    ...FORM,
    intent: 'submit',
  });
  if (res.status !== 200) throw new Error(`submit failed: ${res.status} ${res.text.slice(0, 400)}`);
  const rows = await p.app.platform.db.query<{ id: string }>(
    "select id from activation_requests where state = 'submitted' order by updated_at desc limit 1",
  );
  return rows[0]!.id;
}

/** The mail sent to `to`, oldest first, once the queue has handed everything due to the development outbox. */
async function mailsTo(
  p: TestPlatform,
  to: string,
): Promise<Array<{ subject: string; body: string }>> {
  await mailSettled(p);
  return (await mailTo(p, to)).reverse();
}

describe('the activation queue in the console, and the partner side in the dashboard', () => {
  let p: TestPlatform;
  let now = Date.now();
  beforeAll(async () => {
    p = await startPlatform({ socket: false, clock: () => now });
  });
  afterAll(async () => {
    await p?.close();
  });

  it('approves a submitted request: production on, an audit entry by the operator, the owner emailed', async () => {
    const email = newEmail('owner');
    const { web: owner } = await verifiedOwner(p, email);
    const id = await submitted(p, owner);
    now += STEP;
    const op = await enrolledOperator(p, ['support'], now);
    now += STEP;
    const { web } = await consoleSignIn(p, op, now);
    const queue = await web.get('/console/activation');
    expect(queue.text).toContain(id);
    const page = await web.get(`/console/activation/${id}`);
    for (const shown of [
      'Adwoa Bakery Ltd',
      'CS123456789',
      'GHA-123456789-0',
      'MTN +233244123456',
      'GA-183-8164',
      '+233302123456',
    ])
      expect(page.text).toContain(shown);
    const approved = await web.post(`/console/activation/${id}/approve`, {
      _csrf: csrfOf(page.text),
    });
    expect(approved.status).toBe(200);
    expect(approved.text).toMatch(/id="request-state">approved</);
    const audit = await audited(p, { action: 'activation.approve', target_id: id });
    expect(audit).toEqual([expect.objectContaining({ actor: { kind: 'operator', id: op.id } })]);
    expect(audit[0]!.ip).not.toBeNull();
    const mails = await mailsTo(p, email);
    expect(mails.at(-1)).toEqual(
      expect.objectContaining({ subject: 'Production access is active on the Partner Platform' }),
    );
    // The owner now sees it and may create a production key with money scopes named.
    const mine = await owner.get('/dashboard/activation');
    expect(mine.text).toMatch(/id="activation-state">approved</);
    const appPage = await owner.submit('/dashboard/apps', '/dashboard/apps', { name: 'Till' });
    const appId = /<code>(app_[0-9A-Z]{26})<\/code>/.exec(appPage.text)![1]!;
    const key = await owner.submit(
      '/dashboard/activation',
      '/dashboard/activation/production-key',
      { app_id: appId, 'scope_delivery:read': 'on', 'scope_delivery:wallet:spend': 'on' },
    );
    expect(key.status).toBe(200);
    expect(key.text).toContain('delivery:read, delivery:wallet:spend');
    const { keys } = (await p.admin('GET', `/apps/${appId}/keys`)).body;
    expect(keys).toEqual([
      expect.objectContaining({
        environment: 'production',
        scopes: ['delivery:read', 'delivery:wallet:spend'],
      }),
    ]);
  });

  it('rejects with a required reason the owner is emailed and sees; the owner edits and resubmits', async () => {
    const email = newEmail('owner');
    const { web: owner } = await verifiedOwner(p, email);
    const id = await submitted(p, owner);
    now += STEP;
    const op = await enrolledOperator(p, ['admin'], now);
    now += STEP;
    const { web } = await consoleSignIn(p, op, now);
    const page = await web.get(`/console/activation/${id}`);
    const empty = await web.post(`/console/activation/${id}/reject`, {
      _csrf: csrfOf(page.text),
      reason: ' ',
    });
    expect(empty.status).toBe(400);
    expect(empty.text).toMatch(/id="request-state">submitted</);
    const rejected = await web.post(`/console/activation/${id}/reject`, {
      _csrf: csrfOf(page.text),
      reason: 'The Ghana Card does not match the <director> on file.',
    });
    expect(rejected.status).toBe(200);
    expect(rejected.text).toContain('&lt;director&gt;');
    expect(
      (await audited(p, { action: 'activation.reject', target_id: id })).map((e) => ({
        actor_id: e.actor.id,
      })),
    ).toEqual([{ actor_id: op.id }]);
    expect((await mailsTo(p, email)).at(-1)!.body).toContain(
      'The Ghana Card does not match the <director> on file.',
    );
    const mine = await owner.get('/dashboard/activation');
    expect(mine.text).toMatch(
      /id="rejection-reason">The Ghana Card does not match the &lt;director&gt; on file.</,
    );
    const again = await owner.submit('/dashboard/activation', '/dashboard/activation', {
      ...FORM,
      director_ghana_card: 'GHA-987654321-1',
      intent: 'submit',
    });
    expect(again.text).toMatch(/id="activation-state">submitted</);
  });

  it('gives a finance operator 403 on approve (a support/admin action), and no decide buttons', async () => {
    const { web: owner } = await verifiedOwner(p, newEmail('owner'));
    const id = await submitted(p, owner);
    now += STEP;
    const op = await enrolledOperator(p, ['finance'], now);
    now += STEP;
    const { web } = await consoleSignIn(p, op, now);
    const page = await web.get(`/console/activation/${id}`);
    expect(page.status).toBe(200);
    expect(page.text).not.toContain('Approve production access');
    const refused = await web.post(`/console/activation/${id}/approve`, {
      _csrf: csrfOf(page.text),
    });
    expect(refused.status).toBe(403);
    expect(refused.text).toContain('Not allowed');
    const state = await p.app.platform.db.query<{ state: string }>(
      'select state from activation_requests where id = $1',
      [id],
    );
    expect(state[0]!.state).toBe('submitted');
  });

  it('validates the Ghana fields with a clear message under each, and never answers 5xx to hostile input', async () => {
    const { web: owner } = await verifiedOwner(p, newEmail('owner'));
    const bad = await owner.submit('/dashboard/activation', '/dashboard/activation', {
      ...FORM,
      registration_number: '12345',
      director_ghana_card: 'GHA-12345',
      digital_address: 'ZZ-1-2',
      momo_number: '0302123456',
      contact_phone: 'call me',
      intent: 'save',
    });
    expect(bad.status).toBe(400);
    expect(bad.text).toContain(
      'Registration number must be two letters and 6 to 12 digits, e.g. CS123456789.',
    );
    expect(bad.text).toContain(
      'Director&#39;s Ghana Card number must be a Ghana Card number GHA-XXXXXXXXX-X',
    );
    expect(bad.text).toContain(
      'GhanaPostGPS address must be a GhanaPostGPS address like GA-183-8164',
    );
    expect(bad.text).toContain('Mobile money number must be a Ghana mobile number.');
    expect(bad.text).toContain('Contact phone must be a Ghana phone number.');
    // What was typed stays in the form.
    expect(bad.text).toContain('value="GHA-12345"');
    const incomplete = await owner.submit('/dashboard/activation', '/dashboard/activation', {
      business_name: 'Only a name',
      intent: 'submit',
    });
    expect(incomplete.status).toBe(400);
    expect(incomplete.text).toContain('is required to submit');

    // Control characters, NUL and huge strings are refused (4xx); odd but printable text is only never a 5xx.
    const refused = ['\u0000', 'Ama\u0007Foods', 'x'.repeat(100_000), 'a\u2028b'];
    const odd = [
      '\u202e',
      '<script>alert(1)</script>',
      '%00',
      'ａｂｃ',
      "'; drop table partners; --",
    ];
    const fields = [
      'business_name',
      'registration_number',
      'director_ghana_card',
      'digital_address',
      'contact_phone',
      'bank_code',
      'account_number',
      'account_name',
      'settlement_kind',
    ];
    for (const value of [...refused, ...odd]) {
      for (const field of fields) {
        const res = await owner.submit('/dashboard/activation', '/dashboard/activation', {
          ...FORM,
          settlement_kind: 'bank',
          bank_code: 'GCB',
          account_number: '1234567890',
          account_name: 'Adwoa',
          [field]: value,
          intent: 'save',
        });
        const what = `${field}=${JSON.stringify(value.slice(0, 20))}`;
        expect(res.status, what).toBeLessThan(500);
        if (refused.includes(value)) expect(res.status, what).toBeGreaterThanOrEqual(400);
        expect(res.text).not.toContain('<script>alert(1)</script>');
      }
    }
  });
});
