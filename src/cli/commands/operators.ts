import { readFileSync } from 'node:fs';
import { UsageError, type Args } from '../args.ts';
import { onOff, type Command } from '../command.ts';
import { block, shownOnce, table, type Fields } from '../output.ts';

const operatorFields: Fields = {
  'operator id': 'operator_id',
  email: 'email',
  name: 'name',
  roles: 'roles',
  active: 'active',
  totp: 'totp_confirmed',
  created: 'created_at',
};
const tokenFields: Fields = {
  'token id': 'token_id',
  'operator id': 'operator_id',
  name: 'name',
  hint: 'token_hint',
  created: 'created_at',
  expires: 'expires_at',
  revoked: 'revoked_at',
};
const auditFields: Fields = {
  at: 'at',
  actor: (e) => `${e.actor.kind}:${e.actor.id}`,
  action: 'action',
  target: (e) => (e.target ? `${e.target.type}:${e.target.id}` : null),
  ip: 'ip',
};

/** The password from a file (`/dev/stdin` works), never from the command line where `ps` would show it. */
function password(a: Args): string {
  try {
    return readFileSync(String(a['password-file']), 'utf8').replace(/\r?\n$/, '');
  } catch (err) {
    throw new UsageError(`cannot read --password-file: ${(err as Error).message}`);
  }
}

function operatorUpdate(a: Args) {
  const body = { name: a.name, roles: a.roles, active: onOff(a.active) };
  if (Object.values(body).every((v) => v === undefined))
    throw new UsageError('nothing to update: give at least one option');
  return body;
}

export const operatorGroups = {
  operators: 'Operator accounts: roles, active flag (admin role)',
  'operator-tokens': "Operators' API tokens for the operator API",
  totp: "An operator's authenticator (TOTP) enrolment",
  audit: 'The audit log: who changed what (admin role)',
};

export const operatorCommands: Command[] = [
  {
    name: 'operators create',
    summary: 'Create an operator account (the first one with the ADMIN_TOKEN)',
    route: 'POST /operators',
    usage: '--email EMAIL --name NAME --roles ROLE,... --password-file FILE',
    payload: (a) => ({ email: a.email, name: a.name, roles: a.roles, password: password(a) }),
    show: (b) => block(b, operatorFields),
    help: {
      roles: 'One or more of support, finance, admin',
      'password-file':
        'A file holding the password (10 to 256 characters); /dev/stdin reads it from a pipe',
    },
  },
  {
    name: 'operators list',
    summary: 'List operator accounts',
    route: 'GET /operators',
    show: (b) => table(b.operators, operatorFields, '(no operators)'),
  },
  {
    name: 'operators get',
    summary: 'Show an operator account',
    route: 'GET /operators/:operator_id',
    usage: 'OPERATOR_ID',
    show: (b) => block(b, operatorFields),
  },
  {
    name: 'operators update',
    summary:
      'Rename an operator, change roles, deactivate or reactivate (never the last active admin)',
    route: 'PATCH /operators/:operator_id',
    usage: 'OPERATOR_ID [--name NAME] [--roles ROLE,...] [--active on|off]',
    payload: operatorUpdate,
    show: (b) => block(b, operatorFields),
    help: {
      roles: 'Replace the roles: one or more of support, finance, admin',
      active: 'off: the operator and every token of theirs are refused at once',
    },
  },
  {
    name: 'operator-tokens create',
    summary: 'Create an operator API token; shown once',
    route: 'POST /operators/:operator_id/tokens',
    usage: 'OPERATOR_ID --name NAME [--expires-at TIME]',
    payload: (a) => ({ name: a.name, expires_at: a['expires-at'] }),
    show: (b) => `${block(b, { ...tokenFields, token: 'token' })}${shownOnce('token')}`,
    help: { 'expires-at': 'RFC 3339 time after which the token is refused (default: never)' },
  },
  {
    name: 'operator-tokens list',
    summary: "List an operator's tokens (hints only)",
    route: 'GET /operators/:operator_id/tokens',
    usage: 'OPERATOR_ID',
    show: (b) => table(b.tokens, tokenFields, '(no tokens)'),
  },
  {
    name: 'operator-tokens revoke',
    summary: 'Revoke an operator token at once',
    route: 'DELETE /operator-tokens/:token_id',
    usage: 'TOKEN_ID',
    show: (_, a) =>
      `Revoked operator token ${a.TOKEN_ID}: it answers 401 INVALID_ADMIN_TOKEN from now on.`,
  },
  {
    name: 'totp enrol',
    summary: 'Start TOTP enrolment: the secret and otpauth URI, shown once',
    route: 'POST /operators/:operator_id/totp',
    usage: 'OPERATOR_ID',
    show: (b) =>
      `${block(b, { 'operator id': 'operator_id', secret: 'totp_secret', uri: 'otpauth_uri' })}${shownOnce('secret')}\nAdd it to an authenticator app, then: partner-admin totp confirm ${b.operator_id} --code CODE`,
  },
  {
    name: 'totp confirm',
    summary: "Confirm TOTP enrolment with the authenticator's current code",
    route: 'POST /operators/:operator_id/totp/confirm',
    usage: 'OPERATOR_ID --code CODE',
    payload: (a) => ({ code: a.code }),
    show: (b) => block(b, operatorFields),
  },
  {
    name: 'audit search',
    summary: 'Search the audit log, newest first',
    route: 'GET /audit',
    usage:
      '[--actor ACTOR_ID] [--actor-kind operator|admin_token|member|system] [--action ACTION] [--target-type TYPE] [--target-id ID] [--from TIME] [--to TIME] [--limit N] [--cursor CURSOR]',
    payload: (a) => ({
      actor_id: a.actor,
      actor_kind: a['actor-kind'],
      action: a.action,
      target_type: a['target-type'],
      target_id: a['target-id'],
      from: a.from,
      to: a.to,
      limit: a.limit,
      cursor: a.cursor,
    }),
    show: (b, a) =>
      table(b.entries, auditFields, '(no entries)') +
      (b.next_cursor
        ? `\n\nMore: partner-admin audit search --cursor ${b.next_cursor}${a.limit ? ` --limit ${a.limit}` : ''}`
        : ''),
    help: {
      from: 'RFC 3339 time, inclusive',
      to: 'RFC 3339 time, exclusive',
      cursor: 'next_cursor of the previous page',
    },
  },
];
