import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { paystackSignature } from '../../../src/integrations/payments/paystack-client.ts';
import {
  PaystackTransfers,
  paystackRecipient,
} from '../../../src/integrations/transfers/paystack.ts';
import type { PayoutDestination } from '../../../src/integrations/transfers/types.ts';
import { AppError } from '../../../src/platform/errors.ts';
import { newId } from '../../../src/platform/ids.ts';
import { startFakePaystack, type FakePaystack } from '../../fakes/paystack.ts';

let fake: FakePaystack;
let provider: PaystackTransfers;
// Long enough that the calls meant to succeed do so on a loaded machine.
const TIMEOUT_MS = 1000;
const momo: PayoutDestination = {
  kind: 'mobile_money',
  network: 'telecel',
  number: '+233201234567',
  name: 'Ama Mensah',
};
const bank: PayoutDestination = {
  kind: 'bank',
  bankCode: '280100',
  accountNumber: '1234567890123',
  name: 'Kofi Traders',
};

let n = 0;
const reference = () => `po_${String(++n).padStart(16, '0')}`;
const send = (ref: string, destination: PayoutDestination = momo) =>
  provider.send({ reference: ref, amountPesewas: 12_345, destination, reason: 'Payout' });
const paid = () => [...fake.transfers.values()].filter((t) => t.status === 'success').length;

async function gatewayError(promise: Promise<unknown>): Promise<AppError> {
  const err = await promise.then(
    () => expect.fail('expected GATEWAY_ERROR'),
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(AppError);
  expect((err as AppError).code).toBe('GATEWAY_ERROR');
  expect((err as AppError).message).not.toContain(fake.secretKey);
  return err as AppError;
}

beforeEach(async () => {
  fake = await startFakePaystack();
  provider = new PaystackTransfers({
    secretKey: fake.secretKey,
    baseUrl: fake.url,
    timeoutMs: TIMEOUT_MS,
  });
});
afterEach(() => fake.close());

describe('Paystack recipients', () => {
  it('maps wallets to mobile_money with Paystack Ghana codes and local numbers, banks to ghipss', () => {
    expect(paystackRecipient(momo)).toEqual({
      type: 'mobile_money',
      bank_code: 'VOD',
      account_number: '0201234567',
      name: 'Ama Mensah',
    });
    expect(paystackRecipient({ ...momo, network: 'mtn', number: '0241234567' })).toMatchObject({
      bank_code: 'MTN',
      account_number: '0241234567',
    });
    expect(
      paystackRecipient({ ...momo, network: 'airteltigo', number: '233 27 123 4567' }),
    ).toMatchObject({ bank_code: 'ATL', account_number: '0271234567' });
    expect(paystackRecipient(bank)).toEqual({
      type: 'ghipss',
      bank_code: '280100',
      account_number: '1234567890123',
      name: 'Kofi Traders',
    });
  });
});

describe('PaystackTransfers.send and status', () => {
  it('creates the recipient, then the transfer with our reference, pending until Paystack settles it', async () => {
    const ref = reference();
    const outcome = await send(ref);
    const t = fake.transfers.get(ref)!;
    expect(outcome).toEqual({
      state: 'pending',
      providerReference: t.transferCode,
      feePesewas: 0,
      reason: null,
    });
    const [recipientCall, transferCall] = fake.requests.slice(-2);
    expect(JSON.parse(recipientCall!.body)).toEqual({
      type: 'mobile_money',
      bank_code: 'VOD',
      account_number: '0201234567',
      name: 'Ama Mensah',
      currency: 'GHS',
    });
    expect(JSON.parse(transferCall!.body)).toEqual({
      source: 'balance',
      amount: 12_345,
      recipient: t.recipient,
      reference: ref,
      reason: 'Payout',
      currency: 'GHS',
    });
    expect(transferCall!.headers.authorization).toBe(`Bearer ${fake.secretKey}`);
    fake.settleTransfer(ref, 'success');
    expect(await provider.status(ref)).toEqual({
      state: 'paid',
      providerReference: t.transferCode,
      feePesewas: 100,
      reason: null,
    });
    expect(fake.requests.at(-1)!.path).toBe(`/transfer/verify/${ref}`);
  });

  it('answers a repeated reference with the transfer Paystack has, and never pays twice', async () => {
    const ref = reference();
    await send(ref, bank);
    fake.settleTransfer(ref, 'success');
    const again = await send(ref, bank);
    expect(again).toMatchObject({
      state: 'paid',
      providerReference: fake.transfers.get(ref)!.transferCode,
    });
    expect(fake.transfers.size).toBe(1);
    expect(paid()).toBe(1);
  });

  it('resolves a lost answer by asking for the status: the transfer made is found and paid once', async () => {
    const ref = reference();
    fake.failNext('drop', '/transfer'); // Paystack makes the transfer; its answer never arrives
    const t0 = performance.now();
    await gatewayError(send(ref));
    expect(performance.now() - t0).toBeLessThan(TIMEOUT_MS + 500);
    expect(await provider.status(ref)).toMatchObject({
      state: 'pending',
      providerReference: fake.transfers.get(ref)!.transferCode,
    });
    fake.settleTransfer(ref, 'success');
    // A caller that sends again anyway gets the same transfer.
    expect(await send(ref)).toMatchObject({ state: 'paid' });
    expect(fake.transfers.size).toBe(1);
    expect(paid()).toBe(1);
  });

  it('answers unknown for a transfer that never reached Paystack, and 5xx or timeouts as GATEWAY_ERROR', async () => {
    const ref = reference();
    fake.failNext('timeout', '/transfer');
    await gatewayError(send(ref));
    expect(await provider.status(ref)).toEqual({ state: 'unknown' });
    fake.failNext('500');
    await gatewayError(provider.status(ref));
    expect(await send(ref)).toMatchObject({ state: 'pending' });
    expect(fake.transfers.size).toBe(1);
  });

  it("reports a failed and a reversed transfer with Paystack's reason, and a refused transfer as failed", async () => {
    const failed = reference();
    await send(failed);
    fake.settleTransfer(failed, 'failed', 'Account not found');
    expect(await provider.status(failed)).toEqual({
      state: 'failed',
      providerReference: fake.transfers.get(failed)!.transferCode,
      feePesewas: 0,
      reason: 'Account not found',
    });
    const reversed = reference();
    await send(reversed);
    fake.settleTransfer(reversed, 'reversed', 'Reversed by the receiving bank');
    expect(await provider.status(reversed)).toMatchObject({
      state: 'reversed',
      reason: 'Reversed by the receiving bank',
      feePesewas: 100,
    });
    const refused = await send(reference(), { ...bank, accountNumber: 'not-digits' });
    expect(refused).toMatchObject({
      state: 'failed',
      providerReference: null,
      reason: expect.stringContaining('recipient refused'),
    });
    // A retry whose recipient is refused still answers the transfer Paystack already made under that reference.
    const made = reference();
    await send(made);
    fake.settleTransfer(made, 'success');
    expect(
      await provider.send({
        reference: made,
        amountPesewas: 12_345,
        destination: { ...bank, accountNumber: 'not-digits' },
        reason: 'Payout',
      }),
    ).toMatchObject({ state: 'paid' });
  });

  it('keeps an OTP-waiting transfer pending with a reason naming the fix', async () => {
    fake.newTransferStatus = 'otp';
    expect(await send(reference())).toMatchObject({
      state: 'pending',
      reason: expect.stringMatching(/disable transfer OTP/),
    });
  });

  it('refuses references Paystack would refuse, before sending', async () => {
    for (const bad of ['short', 'po_0000000000000001!', `po_${'0'.repeat(48)}`])
      await expect(send(bad)).rejects.toBeInstanceOf(RangeError);
    expect(fake.requests).toHaveLength(0);
  });

  it('sends a payout id (uppercase ULID) lowercased, asks its status the same way, and names it back as ours', async () => {
    const id = newId('pout');
    await send(id);
    const ref = id.toLowerCase();
    expect(fake.transfers.get(ref)).toBeDefined();
    fake.settleTransfer(ref, 'success');
    expect(await provider.status(id)).toMatchObject({ state: 'paid' });
    const raw = JSON.stringify({
      event: 'transfer.success',
      data: { reference: ref, status: 'success' },
    });
    expect(
      provider.transferHint(raw, {
        'x-paystack-signature': paystackSignature(fake.secretKey, raw),
      }),
    ).toEqual({ reference: id });
  });
});

describe('PaystackTransfers.resolveName', () => {
  it('answers the registered name, or null when Paystack cannot resolve it', async () => {
    fake.accountNames.set('VOD:0201234567', 'AMA MENSAH');
    expect(await provider.resolveName(momo)).toBe('AMA MENSAH');
    expect(fake.requests.at(-1)!.path).toBe(
      '/bank/resolve?account_number=0201234567&bank_code=VOD',
    );
    expect(await provider.resolveName(bank)).toBeNull();
    fake.failNext('500');
    await gatewayError(provider.resolveName(momo));
  });
});

describe('PaystackTransfers.registerRecipient', () => {
  it('resolves the registered name with the network or GhIPSS code, then creates the recipient and answers its code', async () => {
    fake.accountNames.set('VOD:0201234567', 'AMA MENSAH');
    const check = await provider.registerRecipient(momo);
    const [resolve, create] = fake.requests.slice(-2);
    expect(resolve!.path).toBe('/bank/resolve?account_number=0201234567&bank_code=VOD');
    expect([create!.method, create!.path, JSON.parse(create!.body)]).toEqual([
      'POST',
      '/transferrecipient',
      {
        type: 'mobile_money',
        bank_code: 'VOD',
        account_number: '0201234567',
        name: 'Ama Mensah',
        currency: 'GHS',
      },
    ]);
    expect(check).toEqual({
      state: 'registered',
      resolvedName: 'AMA MENSAH',
      recipientCode: expect.stringMatching(/^RCP_/),
    });
    // The same account again: the same recipient (Paystack answers the existing one).
    expect(await provider.registerRecipient(momo)).toEqual(check);
    for (const [network, code] of [
      ['mtn', 'MTN'],
      ['airteltigo', 'ATL'],
    ] as const) {
      await provider.registerRecipient({ ...momo, network, number: '0241234567' });
      expect(JSON.parse(fake.requests.at(-1)!.body)).toMatchObject({
        type: 'mobile_money',
        bank_code: code,
      });
    }
    await provider.registerRecipient(bank);
    expect(fake.requests.at(-2)!.path).toBe(
      '/bank/resolve?account_number=1234567890123&bank_code=280100',
    );
    expect(JSON.parse(fake.requests.at(-1)!.body)).toMatchObject({
      type: 'ghipss',
      bank_code: '280100',
    });
  });

  it('answers a mismatching name as it is, an unresolvable one as null, and a refused account as refused', async () => {
    fake.accountNames.set('280100:1234567890123', 'KWAME ASANTE');
    expect(await provider.registerRecipient(bank)).toMatchObject({
      state: 'registered',
      resolvedName: 'KWAME ASANTE',
    });
    expect(await provider.registerRecipient(momo)).toMatchObject({
      state: 'registered',
      resolvedName: null,
    });
    fake.unknownAccounts.add('VOD:0201234567');
    expect(await provider.registerRecipient(momo)).toEqual({
      state: 'refused',
      reason: 'Paystack: Cannot resolve account',
    });
  });

  it('throws GATEWAY_ERROR when Paystack fails, times out or rate-limits, never a verdict', async () => {
    fake.failNext('500', '/transferrecipient');
    await gatewayError(provider.registerRecipient(momo));
    fake.failNext('timeout', '/bank/resolve');
    await gatewayError(provider.registerRecipient(momo));
    fake.failNext('429', '/bank/resolve');
    await gatewayError(provider.registerRecipient(momo));
    fake.failNext('429', '/transferrecipient');
    await gatewayError(provider.registerRecipient(momo));
    fake.failNext('429', '/bank/resolve');
    await gatewayError(provider.resolveName(momo));
  });
});

describe('PaystackTransfers.transferHint', () => {
  const hint = (body: unknown, key = fake.secretKey) => {
    const raw = JSON.stringify(body);
    return provider.transferHint(raw, { 'x-paystack-signature': paystackSignature(key, raw) });
  };

  it('names the reference of a signed transfer.success, failed or reversed event', async () => {
    for (const event of ['transfer.success', 'transfer.failed', 'transfer.reversed']) {
      expect(
        hint({ event, data: { reference: 'po_0000000000000042', status: 'success' } }),
      ).toEqual({ reference: 'po_0000000000000042' });
    }
  });

  it('ignores bad signatures, other events and references that cannot be ours', async () => {
    const body = { event: 'transfer.success', data: { reference: 'po_0000000000000042' } };
    expect(hint(body, 'sk_test_other')).toBeUndefined();
    expect(provider.transferHint(JSON.stringify(body), {})).toBeUndefined();
    expect(
      hint({ event: 'charge.success', data: { reference: 'po_0000000000000042' } }),
    ).toBeUndefined();
    expect(hint({ event: 'transfer.success', data: { reference: 'x' } })).toBeUndefined();
  });

  it('accepts what the fake sends, end to end over HTTP', async () => {
    const ref = reference();
    await send(ref);
    fake.settleTransfer(ref, 'reversed');
    const { createServer } = await import('node:http');
    const received: Array<{ reference: string } | undefined> = [];
    const server = createServer((req, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        received.push(provider.transferHint(body, req.headers));
        res.end('ok');
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const port = (server.address() as { port: number }).port;
    await fake.sendWebhook(`http://127.0.0.1:${port}/`, 'transfer.reversed', ref);
    server.close();
    expect(received).toEqual([{ reference: ref }]);
  });
});
