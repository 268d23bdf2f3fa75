import type { Queryable } from '../../platform/db/index.ts';
import type { Environment } from '../../platform/auth/scopes.ts';

export interface PartnerRow {
  id: string;
  name: string;
  status: 'active' | 'suspended';
  production_active: boolean;
  credit_limit_pesewas: number;
  reads_per_minute: number | null;
  writes_per_minute: number | null;
  created_at: Date;
  updated_at: Date;
}

export interface AppRow {
  id: string;
  partner_id: string;
  name: string;
  webhook_url: string | null;
  return_url: string | null;
  created_at: Date;
}

export interface KeyRow {
  id: string;
  app_id: string;
  environment: Environment;
  key_hint: string;
  scopes: string[];
  created_at: Date;
  revoked_at: Date | null;
}

/** Everything the request pipeline needs about a key, in one indexed lookup. */
export interface KeyAuthRow {
  key_id: string;
  app_id: string;
  partner_id: string;
  environment: Environment;
  scopes: string[];
  signing_secret_sealed: string;
  revoked: boolean;
  partner_status: 'active' | 'suspended';
  production_active: boolean;
  reads_per_minute: number | null;
  writes_per_minute: number | null;
}

export interface PartnerPatch {
  status?: 'active' | 'suspended';
  production_active?: boolean;
  credit_limit_pesewas?: number;
  rate_limits?: { reads_per_minute: number; writes_per_minute: number } | null;
}

const PARTNER_COLS =
  'id, name, status, production_active, credit_limit_pesewas, reads_per_minute, writes_per_minute, created_at, updated_at';
const APP_COLS = 'id, partner_id, name, webhook_url, return_url, created_at';
const KEY_COLS = 'id, app_id, environment, key_hint, scopes, created_at, revoked_at';

export const accountsRepository = {
  async insertPartner(db: Queryable, id: string, name: string): Promise<PartnerRow> {
    const rows = await db.query<PartnerRow>(
      `insert into partners (id, name) values ($1, $2) returning ${PARTNER_COLS}`,
      [id, name],
    );
    return rows[0]!;
  },

  async getPartner(db: Queryable, id: string): Promise<PartnerRow | undefined> {
    return (
      await db.query<PartnerRow>(`select ${PARTNER_COLS} from partners where id = $1`, [id])
    )[0];
  },

  async listPartners(
    db: Queryable,
    limit: number,
    after: string | undefined,
  ): Promise<PartnerRow[]> {
    return db.query<PartnerRow>(
      `select ${PARTNER_COLS} from partners where ($2::text is null or id > $2) order by id limit $1`,
      [limit, after ?? null],
    );
  },

  /** Partners whose id is `text` or whose name contains it (any case), by name. */
  /** The partner's apps holding a key of `environment` that is not revoked. */
  async appsWithLiveKey(
    db: Queryable,
    partnerId: string,
    environment: Environment,
  ): Promise<string[]> {
    const rows = await db.query<{ id: string }>(
      `select a.id from apps a where a.partner_id = $1
          and exists (select 1 from api_keys k where k.app_id = a.id and k.environment = $2 and k.revoked_at is null)
        order by a.id`,
      [partnerId, environment],
    );
    return rows.map((r) => r.id);
  },

  async partnerNames(db: Queryable, ids: string[]): Promise<Array<{ id: string; name: string }>> {
    return db.query<{ id: string; name: string }>(
      `select id, name from partners where id = any($1::text[])`,
      [ids],
    );
  },

  async searchPartners(db: Queryable, text: string, limit: number): Promise<PartnerRow[]> {
    const pattern = `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    return db.query<PartnerRow>(
      `select ${PARTNER_COLS} from partners where id = $1 or name ilike $2 order by name, id limit $3`,
      [text, pattern, limit],
    );
  },

  async updatePartner(
    db: Queryable,
    id: string,
    patch: PartnerPatch,
  ): Promise<PartnerRow | undefined> {
    const limits = patch.rate_limits;
    const rows = await db.query<PartnerRow>(
      `update partners set
         status = coalesce($2, status),
         production_active = coalesce($3, production_active),
         credit_limit_pesewas = coalesce($4, credit_limit_pesewas),
         reads_per_minute = case when $5 then $6::integer else reads_per_minute end,
         writes_per_minute = case when $5 then $7::integer else writes_per_minute end,
         updated_at = now()
       where id = $1 returning ${PARTNER_COLS}`,
      [
        id,
        patch.status ?? null,
        patch.production_active ?? null,
        patch.credit_limit_pesewas ?? null,
        limits !== undefined,
        limits?.reads_per_minute ?? null,
        limits?.writes_per_minute ?? null,
      ],
    );
    return rows[0];
  },

  async insertApp(
    db: Queryable,
    app: {
      id: string;
      partnerId: string;
      name: string;
      webhookUrl: string | null;
      returnUrl: string | null;
      webhookSecretSealed: string;
    },
  ): Promise<AppRow> {
    const rows = await db.query<AppRow>(
      `insert into apps (id, partner_id, name, webhook_url, return_url, webhook_secret_sealed)
       values ($1, $2, $3, $4, $5, $6) returning ${APP_COLS}`,
      [app.id, app.partnerId, app.name, app.webhookUrl, app.returnUrl, app.webhookSecretSealed],
    );
    return rows[0]!;
  },

  async getApp(db: Queryable, id: string): Promise<AppRow | undefined> {
    return (await db.query<AppRow>(`select ${APP_COLS} from apps where id = $1`, [id]))[0];
  },

  async updateApp(
    db: Queryable,
    id: string,
    patch: { name?: string; webhookUrl?: string | null; returnUrl?: string | null },
  ): Promise<AppRow | undefined> {
    const rows = await db.query<AppRow>(
      `update apps set name = coalesce($2, name),
              webhook_url = case when $3 then $4 else webhook_url end,
              return_url = case when $5 then $6 else return_url end,
              updated_at = now()
        where id = $1 returning ${APP_COLS}`,
      [
        id,
        patch.name ?? null,
        patch.webhookUrl !== undefined,
        patch.webhookUrl ?? null,
        patch.returnUrl !== undefined,
        patch.returnUrl ?? null,
      ],
    );
    return rows[0];
  },

  /** Installs a new webhook secret; the current one keeps signing until `previousExpiresAt`. */
  async rotateWebhookSecret(
    db: Queryable,
    id: string,
    sealed: string,
    previousExpiresAt: Date,
  ): Promise<boolean> {
    const rows = await db.query(
      `update apps set previous_webhook_secret_sealed = webhook_secret_sealed, previous_webhook_secret_expires_at = $3,
              webhook_secret_sealed = $2, updated_at = now()
        where id = $1 returning id`,
      [id, sealed, previousExpiresAt],
    );
    return rows.length > 0;
  },

  async listApps(db: Queryable, partnerId: string): Promise<AppRow[]> {
    return db.query<AppRow>(`select ${APP_COLS} from apps where partner_id = $1 order by id`, [
      partnerId,
    ]);
  },

  async insertKey(
    db: Queryable,
    key: {
      id: string;
      appId: string;
      environment: Environment;
      keyHash: string;
      keyHint: string;
      signingSecretSealed: string;
      scopes: string[];
    },
  ): Promise<KeyRow> {
    const rows = await db.query<KeyRow>(
      `insert into api_keys (id, app_id, environment, key_hash, key_hint, signing_secret_sealed, scopes)
       values ($1, $2, $3, $4, $5, $6, $7) returning ${KEY_COLS}`,
      [
        key.id,
        key.appId,
        key.environment,
        key.keyHash,
        key.keyHint,
        key.signingSecretSealed,
        key.scopes,
      ],
    );
    return rows[0]!;
  },

  /** Whether the app holds a production key that is not revoked. */
  async hasLiveProductionKey(db: Queryable, appId: string): Promise<boolean> {
    const rows = await db.query(
      `select 1 from api_keys where app_id = $1 and environment = 'production' and revoked_at is null limit 1`,
      [appId],
    );
    return rows.length > 0;
  },

  async listKeys(db: Queryable, appId: string): Promise<KeyRow[]> {
    return db.query<KeyRow>(`select ${KEY_COLS} from api_keys where app_id = $1 order by id`, [
      appId,
    ]);
  },

  /** Revokes a live key; undefined when there is no such key. Revoking twice keeps the first time. */
  async revokeKey(db: Queryable, id: string): Promise<KeyRow | undefined> {
    const rows = await db.query<KeyRow>(
      `update api_keys set revoked_at = coalesce(revoked_at, now()) where id = $1 returning ${KEY_COLS}`,
      [id],
    );
    return rows[0];
  },

  async findKeyForAuth(db: Queryable, keyHash: string): Promise<KeyAuthRow | undefined> {
    const rows = await db.query<KeyAuthRow>(
      `select k.id as key_id, k.app_id, a.partner_id, k.environment, k.scopes, k.signing_secret_sealed,
              k.revoked_at is not null as revoked, p.status as partner_status, p.production_active,
              p.reads_per_minute, p.writes_per_minute
         from api_keys k join apps a on a.id = k.app_id join partners p on p.id = a.partner_id
        where k.key_hash = $1`,
      [keyHash],
    );
    return rows[0];
  },
};
