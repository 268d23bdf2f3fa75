import { describe, expect, it } from 'vitest';
import { payoutNotices } from '../../../src/flows/destination-change-notifies-payee.ts';
import { as, TX } from '../faces.ts';

describe("a destination change is told to the payee's old contact", () => {
  it("texts a vendor, and mails a partner's owners (and only them) in the change's transaction", async () => {
    const texts: unknown[] = [];
    const mails: unknown[] = [];
    const notices = payoutNotices(
      as({
        sms: { sender: { send: async (m: unknown) => void texts.push(m) } },
        members: {
          team: async () => [
            { role: 'owner', email: 'owner@example.com' },
            { role: 'developer', email: 'dev@example.com' },
          ],
        },
        mailQueue: { send: async (tx: unknown, m: unknown) => void mails.push([tx, m]) },
      }),
    );
    await notices.text('+233200000001', 'Your payout destination changed.');
    expect(texts).toEqual([{ to: '+233200000001', body: 'Your payout destination changed.' }]);
    expect(await notices.ownerEmails('prt_1')).toEqual(['owner@example.com']);
    await notices.mail(TX, 'owner@example.com', 'Destination changed', 'text');
    expect(mails).toEqual([
      [TX, { to: 'owner@example.com', subject: 'Destination changed', text: 'text' }],
    ]);
  });
});
