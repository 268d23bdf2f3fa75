import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { audited } from '../../helpers/audit.ts';
import { newId } from '../../../src/platform/ids.ts';
import type { OperatorRole } from '../../../src/platform/auth/actor.ts';
import { signedInOperator, TOTP_STEP_MS } from '../../helpers/console.ts';
import { startPlatform, type TestPlatform } from '../../helpers/harness.ts';
import { csrfOf, dashboardKey, verifiedOwner } from '../../helpers/web.ts';

describe('webhook dead letters in the console', () => {
  let p: TestPlatform;
  let now = Date.now();
  let deadId: string;
  beforeAll(async () => {
    p = await startPlatform({ socket: false, clock: () => now });
    const { web: owner } = await verifiedOwner(p);
    const { appId } = await dashboardKey(owner);
    deadId = newId('evt');
    // A delivery that used up its retries (the dispatcher is off in tests, so it stays as written).
    await p.app.platform.db.query(
      `insert into outbox_events (id, app_id, environment, type, subject_id, sequence, payload, delivery_status, attempts, last_status_code, last_error)
       values ($1, $2, 'staging', 'delivery.order.updated', 'dlv_TEST', 1, '{}'::jsonb, 'dead', 8, 503, 'Service <Unavailable>')`,
      [deadId, appId],
    );
  });
  afterAll(async () => {
    await p?.close();
  });

  const signedIn = (roles: OperatorRole[]) =>
    signedInOperator(p, roles, () => (now += TOTP_STEP_MS));

  it('lists dead letters across partners; finance reads but gets 403 on replay', async () => {
    const { web } = await signedIn(['finance']);
    const page = await web.get('/console/webhooks');
    expect(page.status).toBe(200);
    expect(page.text).toContain(deadId);
    expect(page.text).toContain('Service &lt;Unavailable&gt;');
    expect(page.text).not.toContain('>Replay<');
    expect(
      (await web.post(`/console/webhooks/${deadId}/replay`, { _csrf: csrfOf(page.text) })).status,
    ).toBe(403);
  });

  it('replays one (support): pending again, audited as the operator; an unknown one is a 404 page', async () => {
    const { web, op } = await signedIn(['support']);
    const page = await web.get('/console/webhooks');
    const replayed = await web.post(`/console/webhooks/${deadId}/replay`, {
      _csrf: csrfOf(page.text),
    });
    expect(replayed.status).toBe(200);
    expect(replayed.text).toContain(`Delivery ${deadId} queued again`);
    expect(replayed.text).not.toContain(`<code>${deadId}</code>`);
    const row = await p.app.platform.db.query<{ delivery_status: string }>(
      'select delivery_status from outbox_events where id = $1',
      [deadId],
    );
    expect(row[0]!.delivery_status).toBe('pending');
    expect(
      (await audited(p, { action: 'webhook_delivery.replay' })).map((e) => ({
        actor_id: e.actor.id,
        target_id: e.target?.id,
      })),
    ).toEqual([{ actor_id: op.id, target_id: deadId }]);
    // Pending now: replaying again is refused with the service's message, not an error page.
    const again = await web.post(`/console/webhooks/${deadId}/replay`, {
      _csrf: csrfOf(page.text),
    });
    expect(again.status).toBe(400);
    expect(again.text).toContain('still pending');
    expect(
      (await web.post(`/console/webhooks/${newId('evt')}/replay`, { _csrf: csrfOf(page.text) }))
        .status,
    ).toBe(404);
  });
});
