import type { Env } from '../../../platform/settings.ts';
import { PAYEE_KINDS, type PayeeKind } from './destinations.ts';

/** Who bears a payout's transfer fee: the platform (an expense of its own) or the payee (withheld from the payout). */
export type FeeBearer = 'platform' | 'payee';
/** A destination's channel, as the provider prices transfers. */
export type FeeChannel = 'mobile_money' | 'bank';

export interface FeeRules {
  /** Per payee kind; a kind not named bears nothing (the platform pays). */
  bearer: Record<PayeeKind, FeeBearer>;
  /** The fee withheld from a payee who bears it, per channel, in pesewas; undefined when no kind bears it. */
  payeeFees: Record<FeeChannel, number> | undefined;
}

const KINDS = PAYEE_KINDS;
const CHANNELS: readonly FeeChannel[] = ['mobile_money', 'bank'];
const BEARERS: readonly FeeBearer[] = ['platform', 'payee'];
const MAX_FEE_PESEWAS = 100_000;

/** `key:value` pairs separated by commas; answers undefined (and a problem) when the text has another shape. */
function pairs(name: string, raw: string, problems: string[]): Array<[string, string]> | undefined {
  const items = raw
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const split = items.map((item) => item.split(':').map((s) => s.trim()));
  if (split.some((p) => p.length !== 2 || !p[0] || !p[1])) {
    problems.push(`${name} must be comma-separated key:value pairs (got "${raw}")`);
    return undefined;
  }
  const keys = split.map((p) => p[0]!);
  const twice = keys.filter((k, i) => keys.indexOf(k) !== i);
  if (twice.length > 0)
    problems.push(`${name} names ${[...new Set(twice)].join(', ')} more than once`);
  return split as Array<[string, string]>;
}

/** PAYOUT_FEE_BEARER: `platform` or `payee` for every kind, or per kind (`vendor:payee,partner:platform`). */
function bearers(env: Env, problems: string[]): Record<PayeeKind, FeeBearer> {
  const all = (b: FeeBearer): Record<PayeeKind, FeeBearer> => ({
    vendor: b,
    partner: b,
    courier: b,
  });
  const raw = env.PAYOUT_FEE_BEARER?.trim();
  if (!raw) return all('platform');
  if ((BEARERS as readonly string[]).includes(raw)) return all(raw as FeeBearer);
  const out = all('platform');
  const shape = `PAYOUT_FEE_BEARER must be platform, payee, or kind:bearer pairs such as vendor:payee,partner:platform (kinds: ${KINDS.join(', ')}; bearers: ${BEARERS.join(', ')})`;
  if (!raw.includes(':')) {
    problems.push(`${shape} (got "${raw}")`);
    return out;
  }
  const list = pairs('PAYOUT_FEE_BEARER', raw, problems);
  if (!list) return out;
  for (const [kind, bearer] of list) {
    if (
      !(KINDS as readonly string[]).includes(kind) ||
      !(BEARERS as readonly string[]).includes(bearer)
    ) {
      problems.push(`${shape} (got "${kind}:${bearer}")`);
      continue;
    }
    out[kind as PayeeKind] = bearer as FeeBearer;
  }
  return out;
}

/** PAYOUT_PAYEE_FEES: the fee per channel (`mobile_money:100,bank:100`, pesewas), needed when a kind bears it. */
function payeeFees(
  env: Env,
  needed: PayeeKind[],
  problems: string[],
): Record<FeeChannel, number> | undefined {
  const raw = env.PAYOUT_PAYEE_FEES?.trim();
  if (!raw) {
    if (needed.length > 0)
      problems.push(
        `PAYOUT_FEE_BEARER makes ${needed.join(' and ')} payees bear the transfer fee: set PAYOUT_PAYEE_FEES to the provider's fee per channel in pesewas, e.g. mobile_money:100,bank:100`,
      );
    return undefined;
  }
  const list = pairs('PAYOUT_PAYEE_FEES', raw, problems);
  if (!list) return undefined;
  const fees: Partial<Record<FeeChannel, number>> = {};
  for (const [channel, value] of list) {
    const n = Number(value);
    if (!(CHANNELS as readonly string[]).includes(channel))
      problems.push(
        `PAYOUT_PAYEE_FEES: unknown channel "${channel}" (channels: ${CHANNELS.join(', ')})`,
      );
    else if (!/^\d+$/.test(value) || n > MAX_FEE_PESEWAS)
      problems.push(
        `PAYOUT_PAYEE_FEES: the ${channel} fee must be a whole number of pesewas from 0 to ${MAX_FEE_PESEWAS} (got "${value}")`,
      );
    else fees[channel as FeeChannel] = n;
  }
  const missing = CHANNELS.filter((c) => fees[c] === undefined);
  if (missing.length > 0) {
    problems.push(
      `PAYOUT_PAYEE_FEES must give a fee for every channel (missing: ${missing.join(', ')})`,
    );
    return undefined;
  }
  return fees as Record<FeeChannel, number>;
}

/** Who bears transfer fees and what a payee bearing one is charged, read from the environment. */
export function feeRules(env: Env, problems: string[]): FeeRules {
  const bearer = bearers(env, problems);
  return {
    bearer,
    payeeFees: payeeFees(
      env,
      KINDS.filter((k) => bearer[k] === 'payee'),
      problems,
    ),
  };
}

/** The fee a payout to `payee` (vendor:… or partner:…) through `channel` withholds: 0 when the platform bears it. */
export function payeeFee(rules: FeeRules, payee: string, channel: FeeChannel): number {
  const kind = payee.slice(0, payee.indexOf(':')) as PayeeKind;
  return rules.bearer[kind] === 'payee' ? (rules.payeeFees?.[channel] ?? 0) : 0;
}
