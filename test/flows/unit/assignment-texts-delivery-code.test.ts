import { describe, expect, it } from 'vitest';
import { assignmentTextsDeliveryCode } from '../../../src/flows/assignment-texts-delivery-code.ts';
import { WhatsAppError, NOT_ON_WHATSAPP } from '../../../src/integrations/whatsapp/index.ts';
import { as, hooks, TX } from '../faces.ts';

type Assign = (
  tx: unknown,
  job: { orderId: string; courierId: string },
) => Promise<(() => Promise<void>) | undefined>;

function wired(
  opts: { environment?: string; sandbox?: boolean; whatsapp?: 'ok' | 'absent' | 'fails' } = {},
) {
  const h = hooks();
  const sent: unknown[] = [];
  const logged: string[] = [];
  const order = {
    id: 'ord_1',
    environment: opts.environment ?? 'production',
    customer_phone: '+233200000009',
    tracking_token: 'tok',
  };
  const whatsapp = opts.whatsapp && {
    sendCode: async (m: unknown) => {
      if (opts.whatsapp === 'absent') throw new WhatsAppError('not on WhatsApp', NOT_ON_WHATSAPP);
      if (opts.whatsapp === 'fails') throw new Error('timeout');
      sent.push(['whatsapp', m]);
    },
  };
  assignmentTextsDeliveryCode.wire(
    as({
      dispatch: {
        service: { onAssign: h.add('onAssign') },
        sandbox: { is: async () => opts.sandbox ?? false },
      },
      delivery: { orders: { find: async () => order } },
      proofs: { issueCode: async () => ({ code: '2468' }) },
      sms: { sender: { send: async (m: unknown) => void sent.push(['sms', m]) } },
      whatsapp,
      publicBaseUrl: 'https://platform.example',
      log: {
        info: (_: unknown, msg: string) => logged.push(`info: ${msg}`),
        warn: (_: unknown, msg: string) => logged.push(`warn: ${msg}`),
      },
    }),
  );
  const assign = () =>
    (h.on('onAssign')[0] as Assign)(TX, { orderId: 'ord_1', courierId: 'cou_1' });
  return { sent, logged, assign };
}

describe("an assignment texts the recipient's delivery code", () => {
  it('issues the code in the transaction and sends it after the commit, by SMS with the tracking link', async () => {
    const { sent, assign } = wired();
    const later = await assign();
    expect(sent).toEqual([]);
    await later!();
    expect(sent).toEqual([
      [
        'sms',
        {
          to: '+233200000009',
          body: expect.stringContaining('https://platform.example/track/tok'),
        },
      ],
    ]);
    expect(JSON.stringify(sent)).toContain('2468');
  });

  it('sends it by WhatsApp too when configured; a recipient without WhatsApp is logged as info, a failure as a warning', async () => {
    const both = wired({ whatsapp: 'ok' });
    await (await both.assign())!();
    expect(both.sent).toEqual([
      ['sms', expect.anything()],
      ['whatsapp', { to: '+233200000009', code: '2468' }],
    ]);
    const absent = wired({ whatsapp: 'absent' });
    await (await absent.assign())!();
    expect(absent.logged).toEqual([
      expect.stringMatching(/^info: the recipient is not on WhatsApp/),
    ]);
    const fails = wired({ whatsapp: 'fails' });
    await (await fails.assign())!();
    expect(fails.logged).toEqual([
      expect.stringMatching(/^warn: could not send the recipient their delivery code by WhatsApp/),
    ]);
  });

  it("messages nobody for a staging order, nor for the sandbox courier's jobs", async () => {
    expect(await wired({ environment: 'staging' }).assign()).toBeUndefined();
    const sandbox = wired({ sandbox: true });
    await (await sandbox.assign())!();
    expect(sandbox.sent).toEqual([]);
  });
});
