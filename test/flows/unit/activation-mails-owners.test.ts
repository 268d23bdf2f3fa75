import { describe, expect, it } from 'vitest';
import { activationNotifier } from '../../../src/flows/activation-mails-owners.ts';
import type { ActivationNotifier } from '../../../src/modules/activation/index.ts';
import { as } from '../faces.ts';

describe("an activation decision is mailed to the partner's owners", () => {
  const request = as<Parameters<ActivationNotifier['approved']>[0]>({
    id: 'act_1',
    partner_id: 'prt_1',
    rejection_reason: null,
  });

  it('queues one mail per owner, through the members module, with the dashboard link', async () => {
    const sent: Array<{ to: string; text: string }> = [];
    const notifier = activationNotifier(
      as({
        options: {},
        members: {
          team: async () => [
            { role: 'owner', email: 'a@example.com' },
            { role: 'viewer', email: 'v@example.com' },
            { role: 'owner', email: 'b@example.com' },
          ],
        },
        mailQueue: {
          send: async (_db: unknown, m: { to: string; text: string }) => void sent.push(m),
        },
        db: {},
        publicBaseUrl: 'https://platform.example',
      }),
    );
    await notifier.approved(request);
    expect(sent.map((m) => m.to)).toEqual(['a@example.com', 'b@example.com']);
    expect(sent[0]!.text).toContain('https://platform.example/dashboard/activation');
  });

  it("is the test's own notifier when one is passed", () => {
    const own = as<ActivationNotifier>({ approved: async () => {}, rejected: async () => {} });
    expect(activationNotifier(as({ options: { activationNotifier: own } }))).toBe(own);
  });
});
