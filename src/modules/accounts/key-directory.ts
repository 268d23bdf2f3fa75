import type { KeyResolver, ResolvedKey } from '../../platform/auth/context.ts';
import type { Db } from '../../platform/db/index.ts';
import { hashApiKey, type SecretBox } from '../../platform/secrets.ts';
import { accountsRepository } from './repository.ts';

const MAX_ENTRIES = 10_000;

interface Entry {
  value: ResolvedKey | null;
  expires: number;
}

/**
 * Resolves API keys with a short-lived cache: the hot path costs no database round trip, and a
 * revocation, suspension or limit change reaches every instance within the TTL (at most 5 s).
 * Concurrent misses for one key share a single lookup.
 */
export class KeyDirectory implements KeyResolver {
  private readonly cache = new Map<string, Entry>();
  private readonly inflight = new Map<string, Promise<ResolvedKey | null>>();

  constructor(
    private readonly db: Db,
    private readonly box: SecretBox,
    private readonly ttlMs: number,
    private readonly clock: () => number = Date.now,
  ) {}

  // Cached by the presented key itself (memory only), so a hit costs no hashing.
  async resolve(apiKey: string): Promise<ResolvedKey | null> {
    const hit = this.cache.get(apiKey);
    if (hit && hit.expires > this.clock()) return hit.value;
    let pending = this.inflight.get(apiKey);
    if (!pending) {
      pending = this.load(apiKey).finally(() => this.inflight.delete(apiKey));
      this.inflight.set(apiKey, pending);
    }
    return pending;
  }

  /** Drops cached entries, so changes made through this instance apply to it at once. */
  invalidate(): void {
    this.cache.clear();
  }

  private async load(apiKey: string): Promise<ResolvedKey | null> {
    const row = await accountsRepository.findKeyForAuth(this.db, hashApiKey(apiKey));
    const value: ResolvedKey | null = row
      ? {
          keyId: row.key_id,
          appId: row.app_id,
          partnerId: row.partner_id,
          environment: row.environment,
          scopes: row.scopes,
          revoked: row.revoked,
          signingSecret: this.box.open(row.signing_secret_sealed),
          partnerActive: row.partner_status === 'active',
          productionActive: row.production_active,
          limits:
            row.reads_per_minute !== null && row.writes_per_minute !== null
              ? { readsPerMinute: row.reads_per_minute, writesPerMinute: row.writes_per_minute }
              : null,
        }
      : null;
    if (this.ttlMs > 0) {
      if (this.cache.size >= MAX_ENTRIES) this.cache.delete(this.cache.keys().next().value!);
      this.cache.set(apiKey, { value, expires: this.clock() + this.ttlMs });
    }
    return value;
  }
}
