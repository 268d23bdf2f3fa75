import type { Db, Queryable } from '../../platform/db/index.ts';
import { errors } from '../../platform/errors.ts';
import { randomBytes } from 'node:crypto';
import { newId, randomToken } from '../../platform/ids.ts';
import { ghsToPesewas } from '../../platform/money.ts';
import { hashApiKey, type SecretBox } from '../../platform/secrets.ts';
import { scopeGrantProblem, type Environment } from '../../platform/auth/scopes.ts';
import type { Destinations } from '../../platform/outbound/destinations.ts';
import { accountsRepository as repo, type PartnerRow } from './repository.ts';

export interface PartnerUpdate {
  status?: 'active' | 'suspended';
  production_active?: boolean;
  credit_limit_ghs?: number;
  rate_limits?: { reads_per_minute: number; writes_per_minute: number } | null;
}

/** `whsec_` and the base64 of 24 random bytes (Standard Webhooks). */
function newWebhookSecret(): string {
  return `whsec_${randomBytes(24).toString('base64')}`;
}

/**
 * Partners, apps and keys: what operators manage. Secrets are returned once, at creation. An app's
 * webhook URL is held, when it is set, to the rules of the strictest environment its keys serve
 * (design: Webhooks), so that events are not found undeliverable later as dead letters.
 */
export class AccountsService {
  constructor(
    private readonly db: Db,
    private readonly box: SecretBox,
    private readonly destinations: Destinations,
    /** Called after a change that affects authentication, to drop this instance's caches. */
    private readonly onAuthChange: () => void,
  ) {}

  /** A new partner; inside the caller's transaction when `tx` is given (sign-up creates its owner with it). */
  async createPartner(name: string, tx: Queryable = this.db): Promise<PartnerRow> {
    return repo.insertPartner(tx, newId('ptn'), name);
  }

  async getPartner(partnerId: string): Promise<PartnerRow> {
    const partner = await repo.getPartner(this.db, partnerId);
    if (!partner) throw errors.partnerNotFound(`There is no partner ${partnerId}.`);
    return partner;
  }

  async listPartners(limit: number, after?: string): Promise<PartnerRow[]> {
    return repo.listPartners(this.db, limit, after);
  }

  /** Whether the partner exists. */
  async partnerExists(partnerId: string): Promise<boolean> {
    return (await repo.getPartner(this.db, partnerId)) !== undefined;
  }

  /** The partner's apps holding a live key of `environment`, read through `q` (a caller's transaction) when given. */
  appsWithLiveKey(
    partnerId: string,
    environment: Environment,
    q: Queryable = this.db,
  ): Promise<string[]> {
    return repo.appsWithLiveKey(q, partnerId, environment);
  }

  /** The names of these partners, by id (for lists that show many partners' rows); unknown ids are left out. */
  async partnerNames(partnerIds: readonly string[]): Promise<Map<string, string>> {
    const unique = [...new Set(partnerIds)];
    if (unique.length === 0) return new Map();
    return new Map((await repo.partnerNames(this.db, unique)).map((r) => [r.id, r.name]));
  }

  /** Partners found by exact id or by a part of the name (the operator console's search). */
  async searchPartners(text: string, limit: number): Promise<PartnerRow[]> {
    return repo.searchPartners(this.db, text.trim(), limit);
  }

  async updatePartner(partnerId: string, update: PartnerUpdate): Promise<PartnerRow> {
    let credit: number | undefined;
    if (update.credit_limit_ghs !== undefined) {
      credit = ghsToPesewas(update.credit_limit_ghs) ?? undefined;
      if (credit === undefined || credit < 0) {
        throw errors.validation(
          'credit_limit_ghs must be zero or more, with at most two decimals.',
          [
            {
              field: 'credit_limit_ghs',
              issue: 'must be a non-negative amount with at most 2 decimals',
            },
          ],
        );
      }
    }
    const row = await repo.updatePartner(this.db, partnerId, {
      status: update.status,
      production_active: update.production_active,
      credit_limit_pesewas: credit,
      rate_limits: update.rate_limits,
    });
    if (!row) throw errors.partnerNotFound(`There is no partner ${partnerId}.`);
    // After the commit (at once, unless an operator's change is still open with its audit entry).
    this.db.afterCommit(() => this.onAuthChange());
    return row;
  }

  /**
   * Turns production access on or off inside the caller's transaction (an approved activation request);
   * this instance's caches are dropped once it commits.
   */
  async setProductionAccess(
    tx: Queryable,
    partnerId: string,
    active: boolean,
  ): Promise<PartnerRow> {
    const row = await repo.updatePartner(tx, partnerId, { production_active: active });
    if (!row) throw errors.partnerNotFound(`There is no partner ${partnerId}.`);
    tx.afterCommit(() => this.onAuthChange());
    return row;
  }

  async createApp(
    partnerId: string,
    input: { name: string; webhook_url?: string; return_url?: string },
  ) {
    await this.getPartner(partnerId);
    // A new app has no keys yet: its keys start in staging, and a production key checks the URL again.
    await this.destinations.requireAppUrl(input.webhook_url, 'staging');
    const webhookSecret = newWebhookSecret();
    const app = await repo.insertApp(this.db, {
      id: newId('app'),
      partnerId,
      name: input.name,
      webhookUrl: input.webhook_url ?? null,
      returnUrl: input.return_url ?? null,
      webhookSecretSealed: this.box.seal(webhookSecret),
    });
    return { app, webhookSecret };
  }

  async getApp(appId: string) {
    return repo.getApp(this.db, appId);
  }

  /** Where a buyer's browser goes after this app's checkouts; null when the app set none. */
  async returnUrl(appId: string): Promise<string | null> {
    return (await repo.getApp(this.db, appId))?.return_url ?? null;
  }

  async updateApp(
    appId: string,
    patch: { name?: string; webhook_url?: string | null; return_url?: string | null },
  ) {
    if (patch.webhook_url) {
      await this.destinations.requireAppUrl(
        patch.webhook_url,
        (await repo.hasLiveProductionKey(this.db, appId)) ? 'production' : 'staging',
      );
    }
    const row = await repo.updateApp(this.db, appId, {
      name: patch.name,
      webhookUrl: patch.webhook_url,
      returnUrl: patch.return_url,
    });
    if (!row) throw errors.appNotFound(`There is no app ${appId}.`);
    return row;
  }

  /** A new webhook secret, shown once; the old one keeps signing for `overlapHours` so receivers can switch. */
  async rotateWebhookSecret(appId: string, overlapHours: number, now: Date) {
    const secret = newWebhookSecret();
    const until = new Date(now.getTime() + overlapHours * 3_600_000);
    if (!(await repo.rotateWebhookSecret(this.db, appId, this.box.seal(secret), until)))
      throw errors.appNotFound(`There is no app ${appId}.`);
    return {
      app_id: appId,
      webhook_secret: secret,
      previous_secret_valid_until: until.toISOString(),
    };
  }

  async listApps(partnerId: string) {
    await this.getPartner(partnerId);
    return repo.listApps(this.db, partnerId);
  }

  async createKey(appId: string, input: { environment: Environment; scopes: string[] }) {
    const app = await repo.getApp(this.db, appId);
    if (!app) throw errors.appNotFound(`There is no app ${appId}.`);
    const scopes = [...new Set(input.scopes)];
    const problem = scopeGrantProblem(input.environment, scopes);
    if (problem)
      throw errors.validation(`${problem[0]!.toUpperCase()}${problem.slice(1)}.`, [
        { field: 'scopes', issue: problem },
      ]);
    if (input.environment === 'production') {
      const partner = await repo.getPartner(this.db, app.partner_id);
      if (!partner?.production_active) {
        throw errors.productionNotActive(
          `Production keys need the partner to have production access first: activate it with \`partner-admin partners update ${app.partner_id} --production on\` (PATCH /admin/v1/partners/${app.partner_id} {"production_active": true}), then create the key again.`,
        );
      }
      this.requireProductionWebhookUrl(app);
    }
    const apiKey = `pk_${input.environment}_${randomToken(24)}`;
    const signingSecret = `sk_${input.environment}_${randomToken(32)}`;
    const row = await repo.insertKey(this.db, {
      id: newId('key'),
      appId,
      environment: input.environment,
      keyHash: hashApiKey(apiKey),
      keyHint: `${apiKey.slice(0, apiKey.indexOf('_', 3) + 5)}…${apiKey.slice(-4)}`,
      signingSecretSealed: this.box.seal(signingSecret),
      scopes,
    });
    return { key: row, apiKey, signingSecret };
  }

  /** A production key may not turn an app whose webhook URL production events can never reach into a production app. */
  private requireProductionWebhookUrl(app: { id: string; webhook_url: string | null }): void {
    const problem = app.webhook_url
      ? this.destinations.urlProblem(app.webhook_url, 'production')
      : null;
    if (!problem) return;
    throw errors.validation(
      `This app's webhook_url ${problem}, so production events could never be delivered to it: set an https URL on a public host first (\`partner-admin apps update ${app.id} --webhook-url https://...\`), then create the key.`,
      [
        {
          field: 'environment',
          issue: `production needs the app's webhook_url to suit production events: it ${problem}`,
        },
      ],
    );
  }

  async listKeys(appId: string) {
    if (!(await repo.getApp(this.db, appId))) throw errors.appNotFound(`There is no app ${appId}.`);
    return repo.listKeys(this.db, appId);
  }

  async revokeKey(keyId: string): Promise<void> {
    const row = await repo.revokeKey(this.db, keyId);
    if (!row) throw errors.keyNotFound(`There is no key ${keyId}.`);
    this.db.afterCommit(() => this.onAuthChange());
  }
}
