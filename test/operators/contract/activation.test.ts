import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ActivationNotifier } from '../../../src/modules/activation/index.ts';
import { createPartner, startPlatform, type TestPlatform } from '../../helpers/harness.ts';
import { operatorWithToken } from '../helpers.ts';

const told: Array<{ kind: string; id: string; state: string; committed: boolean }> = [];
let p: TestPlatform;
const notifier: ActivationNotifier = {
  // Read back through the database: the decision must have committed before the notifier hears of it.
  approved: async (r) => {
    const [row] = await p.app.platform.db.query<{ state: string }>(
      'select state from activation_requests where id = $1',
      [r.id],
    );
    told.push({ kind: 'approved', id: r.id, state: r.state, committed: row?.state === 'approved' });
  },
  rejected: async (r) => {
    told.push({ kind: 'rejected', id: r.id, state: r.state, committed: true });
    throw new Error('mail server down');
  },
};
beforeAll(async () => {
  p = await startPlatform({ socket: false, activationNotifier: notifier });
});
afterAll(() => p.close());

const COMPLETE = {
  business_name: 'Acme Deliveries Ltd',
  registration_number: 'CS123456789',
  director_ghana_card: 'GHA-123456789-0',
  settlement: { kind: 'mobile_money', network: 'MTN', number: '024 123 4567' },
  digital_address: 'ga-183-8164',
  contact_phone: '020 123 4567',
};

async function submitted() {
  const partner = await createPartner(p);
  const caller = { partnerId: partner.partnerId, memberId: 'mem_1' };
  const { activation } = p.app.platform;
  await activation.saveDraft(caller, COMPLETE);
  const row = await activation.submit(caller);
  return { partner, caller, row };
}

describe('production activation requests: the partner side (service)', () => {
  it('saves a partial draft, refuses to submit it incomplete, then submits it complete', async () => {
    const partner = await createPartner(p);
    const caller = { partnerId: partner.partnerId, memberId: 'mem_7' };
    const { activation } = p.app.platform;
    expect(await activation.current(partner.partnerId)).toBeNull();
    const draft = await activation.saveDraft(caller, { business_name: 'Acme Deliveries Ltd' });
    expect(draft).toMatchObject({
      id: expect.stringMatching(/^act_/),
      state: 'draft',
      business_name: 'Acme Deliveries Ltd',
      registration_number: null,
    });
    await expect(activation.submit(caller)).rejects.toMatchObject({
      statusCode: 400,
      code: 'VALIDATION_ERROR',
      details: expect.arrayContaining([
        { field: 'director_ghana_card', issue: 'is required to submit' },
      ]),
    });
    const full = await activation.saveDraft(caller, COMPLETE);
    expect(full).toMatchObject({
      id: draft.id,
      digital_address: 'GA-183-8164',
      contact_phone: '+233201234567',
      settlement: { kind: 'mobile_money', network: 'MTN', number: '+233241234567' },
    });
    const sent = await activation.submit(caller);
    expect(sent).toMatchObject({ state: 'submitted', updated_by_member: 'mem_7' });
    await expect(activation.saveDraft(caller, { business_name: 'Changed' })).rejects.toMatchObject({
      statusCode: 409,
      code: 'INVALID_TRANSITION',
    });
    const audit = await p.admin('GET', `/audit?target_id=${draft.id}`);
    expect(
      audit.body.entries.map((e: { action: string; actor: unknown }) => [e.action, e.actor]),
    ).toEqual([
      ['activation.submit', { kind: 'member', id: 'mem_7' }],
      ['activation.save_draft', { kind: 'member', id: 'mem_7' }],
      ['activation.save_draft', { kind: 'member', id: 'mem_7' }],
    ]);
  });

  it('answers every invalid field at once, never a 5xx, for hostile values', async () => {
    const partner = await createPartner(p);
    const caller = { partnerId: partner.partnerId, memberId: 'mem_1' };
    const hostile = {
      business_name: 'A\u0000B',
      registration_number: 'X'.repeat(100_000),
      director_ghana_card: 'GHA-123456789-0\n',
      settlement: { kind: 'bank', bank_code: '\u0000', account_number: 12, account_name: '' },
      digital_address: 'ZZ-183-8164',
      contact_phone: '+1 555 0100',
    };
    const err = await p.app.platform.activation.saveDraft(caller, hostile).catch((e) => e);
    expect(err).toMatchObject({ statusCode: 400, code: 'VALIDATION_ERROR' });
    expect(err.details.map((d: { field: string }) => d.field).sort()).toEqual(
      [
        'business_name',
        'contact_phone',
        'digital_address',
        'director_ghana_card',
        'registration_number',
        'settlement.account_name',
        'settlement.account_number',
        'settlement.bank_code',
      ].sort(),
    );
    await expect(
      p.app.platform.activation.saveDraft({ partnerId: 'ptn_nope', memberId: 'mem_1' }, {}),
    ).rejects.toMatchObject({ code: 'PARTNER_NOT_FOUND' });
  });
});

describe('production activation requests: the operator queue', () => {
  it('lists the queue by state and reads one; unknown ones answer ACTIVATION_REQUEST_NOT_FOUND', async () => {
    const { row } = await submitted();
    const queue = await p.admin('GET', '/activation-requests?state=submitted&limit=200');
    expect(queue.body.requests.map((r: { request_id: string }) => r.request_id)).toContain(row.id);
    expect(queue.body.requests.every((r: { state: string }) => r.state === 'submitted')).toBe(true);
    expect((await p.admin('GET', `/activation-requests/${row.id}`)).body).toMatchObject({
      request_id: row.id,
      state: 'submitted',
      registration_number: 'CS123456789',
    });
    expect((await p.admin('GET', '/activation-requests/act_nope')).body.code).toBe(
      'ACTIVATION_REQUEST_NOT_FOUND',
    );
    expect((await p.admin('POST', '/activation-requests/act_nope/approve')).status).toBe(404);
    expect(
      (
        await p.admin('POST', '/activation-requests/act_nope/reject', {
          reason: 'Missing documents',
        })
      ).status,
    ).toBe(404);
    expect((await p.admin('GET', '/activation-requests?state=pending')).status).toBe(400);
  });

  it('approves: production access on, state, audit entry in one transaction; the notifier told after the commit', async () => {
    const op = await operatorWithToken(p, ['support']);
    const { partner, row } = await submitted();
    const res = await p.admin(
      'POST',
      `/activation-requests/${row.id}/approve`,
      undefined,
      op.token,
    );
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ state: 'approved', decided_by: `operator:${op.id}` });
    expect((await p.admin('GET', `/partners/${partner.partnerId}`)).body.production_active).toBe(
      true,
    );
    expect(told).toContainEqual({
      kind: 'approved',
      id: row.id,
      state: 'approved',
      committed: true,
    });
    const audit = await p.admin('GET', `/audit?target_id=${row.id}&action=activation.approve`);
    expect(audit.body.entries).toHaveLength(1);
    expect(audit.body.entries[0]).toMatchObject({
      actor: { kind: 'operator', id: op.id },
      before: { state: 'submitted' },
      after: { state: 'approved' },
    });
    // Final: neither approved again nor rejected.
    expect((await p.admin('POST', `/activation-requests/${row.id}/approve`)).body.code).toBe(
      'INVALID_TRANSITION',
    );
    expect(
      (
        await p.admin('POST', `/activation-requests/${row.id}/reject`, {
          reason: 'Changed our mind',
        })
      ).status,
    ).toBe(409);
  });

  it('rejects with a reason; the partner edits and resubmits; a failing notifier changes nothing', async () => {
    const { partner, caller, row } = await submitted();
    expect((await p.admin('POST', `/activation-requests/${row.id}/reject`, {})).status).toBe(400);
    expect(
      (await p.admin('POST', `/activation-requests/${row.id}/reject`, { reason: ' x ' })).body.code,
    ).toBe('VALIDATION_ERROR');
    const res = await p.admin('POST', `/activation-requests/${row.id}/reject`, {
      reason: 'The registration number does not match the business name.',
    });
    expect(res.body).toMatchObject({
      state: 'rejected',
      rejection_reason: 'The registration number does not match the business name.',
      decided_by: 'admin_token:admin_token',
    });
    expect(told.some((t) => t.kind === 'rejected' && t.id === row.id)).toBe(true);
    expect((await p.admin('GET', `/partners/${partner.partnerId}`)).body.production_active).toBe(
      false,
    );
    expect((await p.admin('POST', `/activation-requests/${row.id}/approve`)).body.code).toBe(
      'INVALID_TRANSITION',
    );
    const { activation } = p.app.platform;
    expect((await activation.saveDraft(caller, { registration_number: 'BN987654321' })).state).toBe(
      'draft',
    );
    const again = await activation.submit(caller);
    expect(again).toMatchObject({
      state: 'submitted',
      rejection_reason: null,
      registration_number: 'BN987654321',
    });
    await expect(activation.submit(caller)).rejects.toMatchObject({ code: 'INVALID_TRANSITION' });
  });

  it('holds the queue to roles: every role reads it; finance may not decide', async () => {
    const finance = await operatorWithToken(p, ['finance']);
    const { row } = await submitted();
    expect((await p.admin('GET', '/activation-requests', undefined, finance.token)).status).toBe(
      200,
    );
    expect(
      (await p.admin('POST', `/activation-requests/${row.id}/approve`, undefined, finance.token))
        .body.code,
    ).toBe('FORBIDDEN');
    expect(
      (
        await p.admin(
          'POST',
          `/activation-requests/${row.id}/reject`,
          { reason: 'No' + 'pe' },
          finance.token,
        )
      ).status,
    ).toBe(403);
    expect((await p.admin('GET', '/activation-requests', undefined, 'opt_wrong')).status).toBe(401);
  });
});
