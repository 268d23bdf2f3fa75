import type { Args } from '../args.ts';
import { morePages, type Command } from '../command.ts';
import { block, table, type Fields } from '../output.ts';

const requestFields: Fields = {
  'request id': 'request_id',
  'partner id': 'partner_id',
  state: 'state',
  business: 'business_name',
  registration: 'registration_number',
  'ghana card': 'director_ghana_card',
  settlement: (r) =>
    r.settlement?.kind === 'bank'
      ? `bank ${r.settlement.bank_code} ${r.settlement.account_number} (${r.settlement.account_name})`
      : r.settlement
        ? `${r.settlement.network} ${r.settlement.number}`
        : null,
  address: 'digital_address',
  phone: 'contact_phone',
  submitted: 'submitted_at',
  decided: 'decided_at',
  'decided by': 'decided_by',
  'rejection reason': 'rejection_reason',
};

const request = (body: unknown) => block(body, requestFields);

function queue(body: { requests: unknown[]; next_after: string | null }, a: Args): string {
  const fields: Fields = {
    'request id': 'request_id',
    'partner id': 'partner_id',
    state: 'state',
    business: 'business_name',
    submitted: 'submitted_at',
  };
  return (
    table(body.requests, fields, '(no activation requests)') +
    morePages('requests', 'activation list', body.next_after, a)
  );
}

export const activationGroups = {
  activation: 'Production activation requests: the queue, approval, rejection',
};

export const activationCommands: Command[] = [
  {
    name: 'activation list',
    summary: 'The activation queue, oldest first',
    route: 'GET /activation-requests',
    usage: '[--state draft|submitted|approved|rejected] [--limit N] [--after REQUEST_ID]',
    payload: (a) => ({ state: a.state, limit: a.limit, after: a.after }),
    show: queue,
  },
  {
    name: 'activation get',
    summary: 'Show an activation request',
    route: 'GET /activation-requests/:request_id',
    usage: 'REQUEST_ID',
    show: request,
  },
  {
    name: 'activation approve',
    summary: "Approve a submitted request: turns on the partner's production access",
    route: 'POST /activation-requests/:request_id/approve',
    usage: 'REQUEST_ID',
    show: request,
  },
  {
    name: 'activation reject',
    summary: 'Reject a submitted request with a reason the partner sees',
    route: 'POST /activation-requests/:request_id/reject',
    usage: 'REQUEST_ID --reason TEXT',
    payload: (a) => ({ reason: a.reason }),
    show: request,
  },
];
