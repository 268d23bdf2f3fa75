import { Type } from '@sinclair/typebox';
import { defineOperation } from '../../../platform/http/operation.ts';
import { DateTime, PesewasAndGhs, SafeSuccess } from '../../../platform/http/openapi-shapes.ts';
import { withGhs } from '../../../platform/money.ts';
import { Id, StringEnum, strictObject } from '../../../platform/http/schemas.ts';
import { PARTNER_PAGE, PARTNER_PAGE_MAX, type PartnerPayouts } from '../partner-payouts.ts';
import type { LineRow, PayoutRow, PayoutStatus } from '../repository.ts';

const STATUSES = [
  'awaiting_approval',
  'created',
  'sending',
  'pending',
  'paid',
  'failed',
  'reversed',
  'rejected',
  'cancelled',
] as const satisfies readonly PayoutStatus[];
const Nullable = <T extends ReturnType<typeof Type.String>>(t: T) => Type.Union([t, Type.Null()]);

const Payout = Type.Object({
  payout_id: Type.String({ description: 'Prefixed pout_' }),
  status: StringEnum(
    STATUSES,
    'paid and failed are final for you; reversed follows paid when the provider returned the money (it is owed again); rejected: held by our finance team, owed again; cancelled: never sent, because your destination changed first: the same money is in the payout named by replaced_by',
  ),
  ...PesewasAndGhs(
    'amount',
    'What was sent to your destination: the lines, less deductions, less payee_fee_pesewas',
  ),
  ...PesewasAndGhs(
    'fee',
    'What the provider charged the platform for the transfer; null until known',
    true,
  ),
  ...PesewasAndGhs(
    'payee_fee',
    'The transfer fee deducted from this payout when your payouts bear it (0 when the platform bears it); given back if the payout fails or is reversed',
  ),
  destination: Type.Object({
    kind: StringEnum(['mobile_money', 'bank'] as const),
    network: Nullable(Type.String({ description: 'Mobile money network' })),
    bank_code: Nullable(Type.String()),
    number_ending: Type.String({
      description: 'The last 4 digits of the wallet or account number',
    }),
  }),
  provider_reference: Nullable(
    Type.String({ description: "The transfer provider's reference, once it took the transfer" }),
  ),
  failure_reason: Nullable(Type.String({ description: 'Why the transfer failed, when it did' })),
  replaced_by: Nullable(
    Type.String({
      description:
        'A cancelled payout: the payout (pout_) made in its place for your current destination',
    }),
  ),
  created_at: DateTime(),
  updated_at: DateTime('When the status last changed'),
});

const Line = Type.Object({
  type: StringEnum(
    ['sale', 'deduction', 'adjustment'] as const,
    'sale: your markup on a settled sale; deduction: a return after it settled; adjustment: any other entry',
  ),
  journal_kind: Type.String({
    description: 'The ledger journal, e.g. sale_settlement or sale_refund',
  }),
  subject_id: Type.String({ description: 'The sale (or other subject) the line is about' }),
  ...PesewasAndGhs('amount', 'Negative for deductions'),
});

const Balance = Type.Object({
  ...PesewasAndGhs('pending', 'Settled within the hold period: a return can still reverse it'),
  ...PesewasAndGhs(
    'available',
    'Past the hold and not yet paid out: the next run pays it (negative: deducted from the next payout)',
  ),
  ...PesewasAndGhs('paid_out', 'Paid to you so far'),
});

const payoutView = (p: PayoutRow) => ({
  payout_id: p.id,
  status: p.status,
  ...withGhs({
    amount_pesewas: Number(p.amount_pesewas),
    fee_pesewas: p.fee_pesewas === null ? null : Number(p.fee_pesewas),
    payee_fee_pesewas: Number(p.payee_fee_pesewas),
  }),
  destination: {
    kind: p.destination.kind,
    network: p.destination.kind === 'mobile_money' ? p.destination.network : null,
    bank_code: p.destination.kind === 'bank' ? p.destination.bankCode : null,
    number_ending: (p.destination.kind === 'mobile_money'
      ? p.destination.number
      : p.destination.accountNumber
    ).slice(-4),
  },
  provider_reference: p.provider_reference,
  failure_reason: p.failure_reason,
  replaced_by: p.replaced_by,
  created_at: new Date(p.created_at).toISOString(),
  updated_at: new Date(p.updated_at).toISOString(),
});

const lineView = (l: LineRow) => {
  const amount = Number(l.amount_pesewas);
  // A prepaid sale settled at payment before migration 044 is earned at delivery under its own kind.
  const type =
    l.kind === 'sale_settlement' || l.kind === 'sale_settlement_at_delivery'
      ? 'sale'
      : amount < 0
        ? 'deduction'
        : 'adjustment';
  return {
    type,
    journal_kind: l.kind,
    subject_id: l.subject_id,
    ...withGhs({ amount_pesewas: amount }),
  };
};

const EXAMPLE_PAYOUT = {
  payout_id: 'pout_01JD2X5V8T3N0Q6W4RZK7B9MPE',
  status: 'paid',
  ...withGhs({ amount_pesewas: 4500, fee_pesewas: 100, payee_fee_pesewas: 0 }),
  destination: { kind: 'mobile_money', network: 'mtn', bank_code: null, number_ending: '4567' },
  provider_reference: 'TRF_1a2b3c',
  failure_reason: null,
  replaced_by: null,
  created_at: '2026-03-02T18:00:00.000Z',
  updated_at: '2026-03-02T18:00:02.000Z',
};
const EXAMPLE_BALANCE = withGhs({
  pending_pesewas: 700,
  available_pesewas: 0,
  paid_out_pesewas: 4500,
});

const PRODUCTION_NOTE =
  'Production keys only, with the scope `payouts:read` granted by name (wildcards never grant it).';

// biome-ignore lint/complexity/noExcessiveLinesPerFunction: a list of declarations, one per page or operation, each handler a few lines
export const partnerPayoutOperations = (payouts: PartnerPayouts) => [
  defineOperation({
    id: 'safe-catalog.payouts.list',
    service: 'safe-catalog',
    method: 'GET',
    path: '/api/v1/safe-catalog/payouts.list',
    summary: 'List the payouts of your markup, newest first, with your balance',
    scope: 'payouts:read',
    productionOnly: true,
    access: 'read',
    querystring: strictObject({
      status: Type.Optional(StringEnum(STATUSES, 'Only payouts in this status')),
      limit: Type.Optional(
        Type.Integer({
          minimum: 1,
          description: `Page size: default ${PARTNER_PAGE}; values above ${PARTNER_PAGE_MAX} are treated as ${PARTNER_PAGE_MAX}`,
        }),
      ),
      cursor: Type.Optional(
        Type.String({
          minLength: 1,
          maxLength: 200,
          description: 'next_cursor of the previous page',
        }),
      ),
    }),
    description: `${PRODUCTION_NOTE} Amounts in integer pesewas (\`*_pesewas\`) and, the same amounts, in GHS (\`*_ghs\`, as everywhere else in the API). Pass \`next_cursor\` back as \`cursor\` for the next page (same \`status\`); it is null on the last page. \`balance\` is your markup owed now, whatever the page.`,
    response: SafeSuccess(
      Type.Object({
        payouts: Type.Array(Payout),
        count: Type.Integer({ description: 'Payouts in this page' }),
        next_cursor: Type.Union([Type.String(), Type.Null()], {
          description: 'Cursor of the next page; null on the last one',
        }),
        balance: Balance,
      }),
    ),
    examples: [
      {
        name: 'paid',
        summary: 'One paid payout',
        query: { status: 'paid' },
        response: {
          status: 'success',
          data: {
            payouts: [EXAMPLE_PAYOUT],
            count: 1,
            next_cursor: null,
            balance: EXAMPLE_BALANCE,
          },
        },
      },
    ],
    handler: async ({ query, auth }) => {
      const [{ payouts: page, nextCursor }, balance] = await Promise.all([
        payouts.list(auth.partnerId, query),
        payouts.balance(auth.partnerId),
      ]);
      return {
        body: {
          status: 'success',
          data: {
            payouts: page.map(payoutView),
            count: page.length,
            next_cursor: nextCursor,
            balance: withGhs(balance),
          },
        },
      };
    },
  }),
  defineOperation({
    id: 'safe-catalog.payouts.get',
    service: 'safe-catalog',
    method: 'GET',
    path: '/api/v1/safe-catalog/payouts.get',
    summary: 'One payout with its remittance lines (the sales and deductions it pays)',
    scope: 'payouts:read',
    productionOnly: true,
    access: 'read',
    querystring: strictObject({ payout_id: Id }),
    errorCodes: ['PAYOUT_NOT_FOUND'],
    description: `${PRODUCTION_NOTE} Amounts in integer pesewas and, the same amounts, in GHS (\`*_ghs\`): \`amount_pesewas\` = \`sales_pesewas\` − \`deductions_pesewas\` − \`payee_fee_pesewas\`. Another partner's payout answers 404 \`PAYOUT_NOT_FOUND\`, like a missing one.`,
    response: SafeSuccess(
      Type.Object({
        ...Payout.properties,
        ...PesewasAndGhs('sales', 'The sum of the positive lines'),
        ...PesewasAndGhs('deductions', 'The sum of the negative lines, as a positive amount'),
        lines: Type.Array(Line),
      }),
    ),
    examples: [
      {
        name: 'paid',
        summary: 'A payout of two sales less a return',
        query: { payout_id: EXAMPLE_PAYOUT.payout_id },
        response: {
          status: 'success',
          data: {
            ...EXAMPLE_PAYOUT,
            ...withGhs({ sales_pesewas: 5000, deductions_pesewas: 500 }),
            lines: [
              {
                type: 'sale',
                journal_kind: 'sale_settlement',
                subject_id: 'sale_01JD2X5V8T3N0Q6W4RZK7B9MPA',
                ...withGhs({ amount_pesewas: 3000 }),
              },
              {
                type: 'sale',
                journal_kind: 'sale_settlement',
                subject_id: 'sale_01JD2X5V8T3N0Q6W4RZK7B9MPB',
                ...withGhs({ amount_pesewas: 2000 }),
              },
              {
                type: 'deduction',
                journal_kind: 'sale_refund',
                subject_id: 'sale_01JD2X5V8T3N0Q6W4RZK7B9MPC',
                ...withGhs({ amount_pesewas: -500 }),
              },
            ],
          },
        },
      },
    ],
    handler: async ({ query, auth }) => {
      const { payout, lines } = await payouts.get(auth.partnerId, query.payout_id);
      const views = lines.map(lineView);
      const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
      const sales = sum(views.filter((l) => l.amount_pesewas > 0).map((l) => l.amount_pesewas));
      const deductions = -sum(
        views.filter((l) => l.amount_pesewas < 0).map((l) => l.amount_pesewas),
      );
      return {
        body: {
          status: 'success',
          data: {
            ...payoutView(payout),
            ...withGhs({ sales_pesewas: sales, deductions_pesewas: deductions }),
            lines: views,
          },
        },
      };
    },
  }),
];
