import type { Command } from '../command.ts';
import { block, ghs, table, type Fields } from '../output.ts';

const cedis = (pesewas: unknown) =>
  typeof pesewas === 'number' ? ghs(pesewas / 100) : ghs(pesewas);
const balanceFields: Fields = {
  courier: 'courier_id',
  'to hand in': (b) => cedis(b.balance_pesewas),
  updated: 'updated_at',
};
const handoverFields: Fields = {
  handover: 'id',
  amount: (h) => cedis(h.amount_pesewas),
  'recorded by': 'recorded_by',
  at: 'created_at',
};

export const cashGroups = {
  cash: "Couriers' cash: what each holds from cash-on-delivery orders, and their handovers",
};

export const cashCommands: Command[] = [
  {
    name: 'cash list',
    summary: 'Every courier holding cash, with what they have to hand in',
    route: 'GET /cash/couriers',
    show: (b) => table(b.data, balanceFields, '(no courier holds cash)'),
  },
  {
    name: 'cash show',
    summary: "One courier's cash to hand in and their handovers, newest first",
    route: 'GET /cash/couriers/:courier_id',
    usage: 'COURIER_ID',
    show: (b) =>
      `${block(b, { courier: 'courier_id', 'to hand in': (x) => cedis(x.balance_pesewas) })}\n\n${table(b.handovers, handoverFields, '(no handovers)')}`,
  },
  {
    name: 'cash handover',
    summary: 'Record cash a courier handed in (never more than they hold)',
    route: 'POST /cash/couriers/:courier_id/handovers',
    usage: 'COURIER_ID --amount GHS',
    payload: (a) => ({ amount_pesewas: Math.round(Number(a.amount) * 100) }),
    show: (b) =>
      block(
        { ...b.handover, balance_pesewas: b.balance_pesewas },
        { ...handoverFields, 'left to hand in': (x) => cedis(x.balance_pesewas) },
      ),
    help: { amount: 'The amount handed in, in GHS (e.g. 250 or 99.50)' },
  },
];
