import type { Db, Queryable } from '../../platform/db/index.ts';
import { errors, type ErrorDetail } from '../../platform/errors.ts';
import { newId } from '../../platform/ids.ts';
import {
  cleanCourierInput,
  positionProblem,
  type CourierInput,
  type Vehicle,
} from './domain/courier.ts';
import {
  couriersRepository as repo,
  type CourierFilter,
  type CourierRow,
  type PositionCondition,
} from './repository.ts';

export type { PositionCondition };

export const COURIERS_PAGE = 50;

/** A courier's duty or newest position changed: the operators' dispatch map reads again when it rings. */
export const COURIER_PRESENCE_CHANNEL = 'courier_presence';

/**
 * Told of each position report that became the courier's newest (dispatch keeps the trail of a
 * job), with the courier's name and vehicle as the report's update returned them.
 */
export type PositionListener = (
  courierId: string,
  report: { lat: number; lng: number; at: Date },
  courier: { name: string; vehicle: Vehicle },
) => Promise<void>;

function requireValid(problems: readonly ErrorDetail[]): void {
  if (problems.length)
    throw errors.validation(
      `Invalid ${problems.map((d) => d.field).join(', ')}: ${problems[0]!.issue}.`,
      [...problems],
    );
}

/**
 * Courier accounts (created and edited by operators) and their presence: on duty or not, and the
 * last reported position that dispatch ranks them by.
 */
export class CouriersService {
  private readonly positionListeners: {
    listener: PositionListener;
    when: PositionCondition | undefined;
  }[] = [];
  /** The listeners' conditions as the report's SQL, made when one registers, not per report. */
  private positionConcerns = repo.concernsOf([]);

  constructor(
    private readonly db: Db,
    private readonly clock: () => number,
  ) {}

  /** `when`: the listener is told only of reports for which it holds (always, without one). */
  onPosition(listener: PositionListener, when?: PositionCondition): void {
    this.positionListeners.push({ listener, when });
    this.positionConcerns = repo.concernsOf(this.positionListeners.map((l) => l.when));
  }

  async create(
    input: Required<Pick<CourierInput, 'name' | 'phone' | 'vehicle'>> & {
      zones?: readonly string[];
    },
  ): Promise<CourierRow> {
    const { value, problems } = cleanCourierInput({ ...input, zones: input.zones ?? [] });
    requireValid(problems);
    return repo.insert(this.db, {
      id: newId('cou'),
      name: value.name!,
      phone: value.phone!,
      vehicle: value.vehicle!,
      zones: value.zones!,
      now: new Date(this.clock()),
    });
  }

  /**
   * The simulated courier staging orders are dispatched to, created idempotently (one per
   * deployment). Its phone is not a phone number, so no one can sign in as it or text it.
   */
  async simulated(): Promise<CourierRow> {
    return repo.ensureSimulated(this.db, {
      id: newId('cou'),
      name: 'Sandbox courier (staging)',
      phone: 'sandbox',
      now: new Date(this.clock()),
    });
  }

  /** The courier (in the caller's transaction when given one: the delivered action's proof check reads the last position). */
  async get(id: string, q: Queryable = this.db): Promise<CourierRow> {
    const row = await repo.get(q, id);
    if (!row) throw errors.courierNotFound(`There is no courier ${id}.`);
    return row;
  }

  /** The courier a sign-in phone number belongs to, if any (normalised first). */
  async byPhone(phone: string): Promise<CourierRow | undefined> {
    const { value, problems } = cleanCourierInput({ phone });
    return problems.length ? undefined : repo.byPhone(this.db, value.phone!);
  }

  /**
   * The names of these couriers (one read, whoever they are): a page names the couriers its rows
   * show, where a list would stop at its page size. An unknown id is left out.
   */
  async namesOf(ids: readonly string[]): Promise<Map<string, string>> {
    const wanted = [...new Set(ids)];
    if (!wanted.length) return new Map();
    return new Map((await repo.namesOf(this.db, wanted)).map((c) => [c.id, c.name]));
  }

  /** Which of these couriers are active (one read however many; the live streams' heartbeat). */
  async activeAmong(ids: readonly string[]): Promise<Set<string>> {
    const wanted = [...new Set(ids)];
    if (!wanted.length) return new Set();
    return new Set((await repo.activeAmong(this.db, wanted)).map((c) => c.id));
  }

  async list(filter: Partial<CourierFilter> = {}): Promise<CourierRow[]> {
    return repo.list(this.db, { ...filter, limit: Math.min(filter.limit ?? COURIERS_PAGE, 200) });
  }

  async update(id: string, patch: CourierInput & { active?: boolean }): Promise<CourierRow> {
    const { value, problems } = cleanCourierInput(patch);
    requireValid(problems);
    const row = await repo.update(
      this.db,
      id,
      { ...value, active: patch.active },
      new Date(this.clock()),
    );
    if (!row) throw errors.courierNotFound(`There is no courier ${id}.`);
    return row;
  }

  /** On or off duty; an inactive courier cannot go on duty. */
  async setDuty(id: string, onDuty: boolean): Promise<CourierRow> {
    const row = await repo.setDuty(this.db, id, onDuty, new Date(this.clock()));
    if (row) {
      this.db.notify(COURIER_PRESENCE_CHANNEL);
      return row;
    }
    const existing = await this.get(id);
    throw errors.invalidTransition(`Courier ${existing.id} is deactivated and cannot go on duty.`);
  }

  /** Records a position report; answers false when a newer one is already known (a late replay). */
  async reportPosition(
    id: string,
    report: { lat: number; lng: number; at: Date },
  ): Promise<boolean> {
    const problem = positionProblem(report.lat, report.lng);
    if (problem) requireValid([problem]);
    if (Number.isNaN(report.at.getTime()) || report.at.getTime() > this.clock() + 60_000) {
      requireValid([{ field: 'at', issue: 'must be a valid time, not in the future' }]);
    }
    const courier = await repo.reportPosition(this.db, { id, ...report }, this.positionConcerns);
    if (!courier) await this.get(id);
    else {
      this.db.notify(COURIER_PRESENCE_CHANNEL);
      const { concerns, ...who } = courier;
      for (const [i, { listener }] of this.positionListeners.entries())
        if (concerns[i]) await listener(id, report, who);
    }
    return courier !== undefined;
  }

  /**
   * Active, on-duty couriers whose position is fresher than `maxAgeMs`: newest first, or nearest to
   * `near` first (within `near.km` of it when given).
   */
  async available(q: {
    maxAgeMs: number;
    vehicles?: readonly Vehicle[];
    zone?: string;
    near?: { lat: number; lng: number; km?: number };
    exclude?: readonly string[];
    limit: number;
  }): Promise<CourierRow[]> {
    return repo.available(this.db, { ...q, seenSince: new Date(this.clock() - q.maxAgeMs) });
  }
}
