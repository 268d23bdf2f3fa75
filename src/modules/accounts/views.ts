import { pesewasToGhs } from '../../platform/money.ts';
import type { AppRow, KeyRow, PartnerRow } from './repository.ts';

export interface PartnerView {
  partner_id: string;
  name: string;
  status: 'active' | 'suspended';
  production_active: boolean;
  credit_limit_ghs: number;
  rate_limits: { reads_per_minute: number; writes_per_minute: number } | null;
  created_at: string;
  updated_at: string;
}

export function partnerView(p: PartnerRow): PartnerView {
  return {
    partner_id: p.id,
    name: p.name,
    status: p.status,
    production_active: p.production_active,
    credit_limit_ghs: pesewasToGhs(p.credit_limit_pesewas),
    rate_limits:
      p.reads_per_minute !== null && p.writes_per_minute !== null
        ? { reads_per_minute: p.reads_per_minute, writes_per_minute: p.writes_per_minute }
        : null,
    created_at: p.created_at.toISOString(),
    updated_at: p.updated_at.toISOString(),
  };
}

export function appView(a: AppRow) {
  return {
    app_id: a.id,
    partner_id: a.partner_id,
    name: a.name,
    webhook_url: a.webhook_url,
    return_url: a.return_url,
    created_at: a.created_at.toISOString(),
  };
}

export function keyView(k: KeyRow) {
  return {
    key_id: k.id,
    app_id: k.app_id,
    environment: k.environment,
    key_hint: k.key_hint,
    scopes: k.scopes,
    created_at: k.created_at.toISOString(),
    revoked_at: k.revoked_at?.toISOString() ?? null,
  };
}
