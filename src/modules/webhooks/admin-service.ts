import type { Db } from '../../platform/db/index.ts';
import { errors } from '../../platform/errors.ts';
import type { AccountsService } from '../accounts/index.ts';
import { eventsWritten } from './outbox.ts';
import { webhooksRepository as repo, type AttemptRow, type EventRow } from './repository.ts';

/** What operators do with webhook deliveries: look, replay, and turn an endpoint back on. */
export class WebhookAdminService {
  constructor(
    private readonly db: Db,
    private readonly accounts: AccountsService,
    private readonly clock: () => number,
  ) {}

  async list(q: {
    appId?: string;
    status?: EventRow['delivery_status'];
    type?: string;
    limit: number;
    before?: string;
  }): Promise<{ deliveries: EventRow[]; nextBefore: string | null }> {
    const rows = await repo.list(this.db, q);
    return { deliveries: rows, nextBefore: rows.length === q.limit ? rows.at(-1)!.id : null };
  }

  /** Every event about one subject, oldest first, whatever became of its delivery. */
  eventsAbout(subjectId: string): Promise<EventRow[]> {
    return repo.about(this.db, subjectId);
  }

  async get(deliveryId: string): Promise<{ delivery: EventRow; attempts: AttemptRow[] }> {
    const delivery = await repo.get(this.db, deliveryId);
    if (!delivery) throw errors.notFound(`There is no webhook delivery ${deliveryId}.`);
    return { delivery, attempts: await repo.attempts(this.db, delivery.id) };
  }

  async replay(deliveryId: string): Promise<string[]> {
    const replayed = await this.resend({ id: deliveryId });
    if (replayed.length > 0) return replayed;
    if (!(await repo.get(this.db, deliveryId)))
      throw errors.notFound(`There is no webhook delivery ${deliveryId}.`);
    throw errors.validation('This delivery is still pending; it will be sent on its schedule.');
  }

  async replaySince(appId: string, since: Date): Promise<string[]> {
    await this.app(appId);
    return this.resend({ appId, since });
  }

  /** Events made due again are sent now, not at the dispatchers' next poll. */
  private async resend(which: { id?: string; appId?: string; since?: Date }): Promise<string[]> {
    const replayed = await repo.replay(this.db, which, new Date(this.clock()));
    if (replayed.length > 0) eventsWritten(this.db);
    return replayed;
  }

  /** Turns an endpoint disabled by a 410 back on: the app's URL unless a per-order one is named. */
  async enable(appId: string, url: string | undefined): Promise<{ url: string; enabled: boolean }> {
    const target = url ?? (await this.app(appId)).webhook_url;
    if (url !== undefined) await this.app(appId);
    if (!target)
      throw errors.validation('The app has no webhook URL; name the url to enable.', [
        { field: 'url', issue: 'is required' },
      ]);
    const enabled = await repo.enable(this.db, appId, target);
    if (enabled) eventsWritten(this.db);
    return { url: target, enabled };
  }

  private async app(appId: string) {
    const app = await this.accounts.getApp(appId);
    if (!app) throw errors.appNotFound(`There is no app ${appId}.`);
    return app;
  }
}
