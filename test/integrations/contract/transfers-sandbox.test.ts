import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  SANDBOX_TRANSFER_FEE_PESEWAS,
  SandboxTransfers,
} from '../../../src/integrations/transfers/sandbox.ts';
import type { PayoutDestination } from '../../../src/integrations/transfers/types.ts';
import { onPostgres, startPlatform, type TestPlatform } from '../../helpers/harness.ts';
import { seedDataDir } from '../../helpers/process.ts';

const DELAY = 60_000;
const wallet = (number: string): PayoutDestination => ({
  kind: 'mobile_money',
  network: 'mtn',
  number,
  name: 'Ama Mensah',
});
const bank = (accountNumber: string): PayoutDestination => ({
  kind: 'bank',
  bankCode: '280100',
  accountNumber,
  name: 'Kofi Traders',
});

// A restart on either database: a data directory for the embedded one (from the migrated
// template), a kept schema for PostgreSQL.
const dir = seedDataDir(mkdtempSync(join(tmpdir(), 'pp-transfers-')));
let owner: TestPlatform | undefined;
const open = () =>
  startPlatform(
    onPostgres ? { schema: owner?.schema } : { env: { DATABASE_URL: '', DATA_DIR: dir } },
  );
let now = Date.UTC(2026, 10, 24, 9);
const clock = () => now;

beforeAll(async () => {
  if (onPostgres) owner = await startPlatform({ socket: false });
}, 60_000);
afterAll(async () => {
  await owner?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('SandboxTransfers', () => {
  it('is pending for the delay, then paid with its fee, and answers a repeated reference without a second transfer', async () => {
    const p = await open();
    try {
      const sandbox = new SandboxTransfers(p.app.platform.db, DELAY, clock);
      const first = await sandbox.send({
        reference: 'po_sandbox_1',
        amountPesewas: 5000,
        destination: wallet('0241234567'),
        reason: 'Payout',
      });
      expect(first).toMatchObject({ state: 'pending', feePesewas: null, reason: null });
      expect(first.providerReference).toMatch(/^TRF_/);
      const again = await sandbox.send({
        reference: 'po_sandbox_1',
        amountPesewas: 5000,
        destination: wallet('0241234567'),
        reason: 'Payout',
      });
      expect(again).toEqual(first);
      now += DELAY;
      expect(await sandbox.status('po_sandbox_1')).toEqual({
        state: 'paid',
        providerReference: first.providerReference,
        feePesewas: SANDBOX_TRANSFER_FEE_PESEWAS,
        reason: null,
      });
      expect(await sandbox.status('po_never_sent')).toEqual({ state: 'unknown' });
      const rows = await p.app.platform.db.query<{ n: number }>(
        "select count(*)::int as n from sandbox_transfers where reference = 'po_sandbox_1'",
      );
      expect(rows[0]!.n).toBe(1);
    } finally {
      await p.close();
    }
  }, 60_000);

  it('keeps its transfers across a restart', async () => {
    const p = await open();
    try {
      const sandbox = new SandboxTransfers(p.app.platform.db, DELAY, clock);
      expect(await sandbox.status('po_sandbox_1')).toMatchObject({ state: 'paid' });
      // A repeated reference after the restart is still the same transfer.
      expect(
        await sandbox.send({
          reference: 'po_sandbox_1',
          amountPesewas: 5000,
          destination: wallet('0241234567'),
          reason: 'Payout',
        }),
      ).toMatchObject({ state: 'paid' });
    } finally {
      await p.close();
    }
  }, 60_000);

  it('fails destinations ending in 99, reverses those ending in 98, and looks names up deterministically', async () => {
    const p = await open();
    try {
      const sandbox = new SandboxTransfers(p.app.platform.db, DELAY, clock);
      expect(
        await sandbox.send({
          reference: 'po_fails',
          amountPesewas: 100,
          destination: bank('1234567899'),
          reason: 'Payout',
        }),
      ).toMatchObject({
        state: 'failed',
        reason: expect.stringContaining('refuses'),
      });
      await sandbox.send({
        reference: 'po_reverses',
        amountPesewas: 100,
        destination: wallet('0241234598'),
        reason: 'Payout',
      });
      now += DELAY;
      expect(await sandbox.status('po_reverses')).toMatchObject({ state: 'paid' });
      now += DELAY;
      expect(await sandbox.status('po_reverses')).toMatchObject({
        state: 'reversed',
        reason: expect.stringContaining('reversed'),
      });
      expect(await sandbox.resolveName(wallet('0241234567'))).toBe('Ama Mensah');
      expect(await sandbox.resolveName(wallet('0241234597'))).toBe('SANDBOX OTHER NAME');
      expect(await sandbox.resolveName(bank('1234567896'))).toBeNull();
      // Registering a recipient: the same names, a recipient code made of the number, 95 refused.
      expect(await sandbox.registerRecipient(wallet('0241234567'))).toEqual({
        state: 'registered',
        resolvedName: 'Ama Mensah',
        recipientCode: 'RCP_sandbox_0241234567',
      });
      expect(await sandbox.registerRecipient(wallet('0241234597'))).toMatchObject({
        state: 'registered',
        resolvedName: 'SANDBOX OTHER NAME',
      });
      expect(await sandbox.registerRecipient(bank('1234567896'))).toMatchObject({
        state: 'registered',
        resolvedName: null,
      });
      expect(await sandbox.registerRecipient(bank('1234567895'))).toEqual({
        state: 'refused',
        reason: 'sandbox: no such account',
      });
      expect(sandbox.transferHint()).toBeUndefined();
      await expect(
        sandbox.send({
          reference: 'bad ref',
          amountPesewas: 100,
          destination: wallet('0241234567'),
          reason: 'x',
        }),
      ).rejects.toBeInstanceOf(RangeError);
      await expect(
        sandbox.send({
          reference: 'po_zero',
          amountPesewas: 0,
          destination: wallet('0241234567'),
          reason: 'x',
        }),
      ).rejects.toBeInstanceOf(RangeError);
    } finally {
      await p.close();
    }
  }, 60_000);
});
