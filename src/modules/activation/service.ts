import type { Actor, RequestOrigin } from '../../platform/auth/actor.ts';
import type { Db, Queryable } from '../../platform/db/index.ts';
import { errors, type ErrorDetail } from '../../platform/errors.ts';
import { newId } from '../../platform/ids.ts';
import type { Logger } from '../../platform/logger.ts';
import type { AccountsService } from '../accounts/index.ts';
import type { AuditLog } from '../audit/index.ts';
import {
  missingFields,
  rejectionReason,
  validateFields,
  type ActivationFields,
  type FIELD_NAMES,
} from './domain/fields.ts';
import {
  allowedFrom,
  nextState,
  type ActivationEvent,
  type ActivationState,
} from './domain/states.ts';
import type { ActivationNotifier } from './notifier.ts';
import { activationRepository as repo, type ActivationRow } from './repository.ts';

/** Who acts for a partner (the dashboard): the partner and its signed-in member. */
export interface ActivationCaller {
  partnerId: string;
  memberId: string;
}

export type ActivationInput = Partial<Record<(typeof FIELD_NAMES)[number], unknown>>;

const DONE: Record<ActivationEvent, string> = {
  edit: 'edited',
  submit: 'submitted',
  approve: 'approved',
  reject: 'rejected',
};

function invalid(problems: ErrorDetail[], what: string): never {
  throw errors.validation(
    `${what}: ${problems.map((p) => `${p.field} ${p.issue}`).join('; ')}.`,
    problems,
  );
}

/**
 * Production activation requests: the partner's side (save a draft, submit, read the current one) and
 * the operator's (the queue, approve, reject). Every change writes its audit entry in its own
 * transaction; approval turns on production access in that same transaction; the notifier is told
 * after the commit.
 */
export class ActivationService {
  constructor(
    private readonly deps: {
      db: Db;
      accounts: AccountsService;
      audit: AuditLog;
      notifier: ActivationNotifier;
      clock: () => number;
      log: Logger;
    },
  ) {}

  async current(partnerId: string): Promise<ActivationRow | null> {
    return (await repo.forPartner(this.deps.db, partnerId)) ?? null;
  }

  async saveDraft(caller: ActivationCaller, input: ActivationInput): Promise<ActivationRow> {
    const { fields, problems } = validateFields(input);
    if (problems.length) invalid(problems, 'The request has invalid fields');
    await this.deps.accounts.getPartner(caller.partnerId);
    return this.deps.db.transaction(async (tx) => {
      await repo.ensure(tx, newId('act'), caller.partnerId, new Date(this.deps.clock()));
      const row = (await repo.forPartner(tx, caller.partnerId, true))!;
      const saved = await this.move(tx, row, 'edit', {
        ...fields,
        updated_by_member: caller.memberId,
      });
      await this.record(
        tx,
        { kind: 'member', id: caller.memberId },
        'activation.save_draft',
        row,
        saved,
      );
      return saved;
    });
  }

  async submit(caller: ActivationCaller): Promise<ActivationRow> {
    return this.deps.db.transaction(async (tx) => {
      const row = await repo.forPartner(tx, caller.partnerId, true);
      if (!row)
        throw errors.activationRequestNotFound(
          'There is no activation request to submit: save a draft first.',
        );
      const missing = missingFields(row);
      if (missing.length && nextState(row.state, 'submit'))
        invalid(missing, 'The request is incomplete');
      const saved = await this.move(tx, row, 'submit', {
        updated_by_member: caller.memberId,
        submitted_at: new Date(this.deps.clock()),
        rejection_reason: null,
      });
      await this.record(
        tx,
        { kind: 'member', id: caller.memberId },
        'activation.submit',
        row,
        saved,
      );
      return saved;
    });
  }

  async list(filter: {
    state?: ActivationState;
    limit: number;
    after?: string;
  }): Promise<ActivationRow[]> {
    return repo.list(this.deps.db, filter);
  }

  async get(id: string): Promise<ActivationRow> {
    const row = await repo.get(this.deps.db, id);
    if (!row) throw errors.activationRequestNotFound(`There is no activation request ${id}.`);
    return row;
  }

  /** Approves a submitted request and turns on the partner's production access, in one transaction. */
  async approve(id: string, actor: Actor, origin?: RequestOrigin): Promise<ActivationRow> {
    const saved = await this.decide(id, 'approve', actor, origin, async (tx, row) => {
      await this.deps.accounts.setProductionAccess(tx, row.partner_id, true);
      return {};
    });
    await this.tell(() => this.deps.notifier.approved(saved), saved);
    return saved;
  }

  /** Rejects a submitted request with a reason the partner sees; they may edit and submit again. */
  async reject(
    id: string,
    reason: string,
    actor: Actor,
    origin?: RequestOrigin,
  ): Promise<ActivationRow> {
    const checked = rejectionReason(reason);
    if ('problem' in checked) invalid([checked.problem], 'The reason is not valid');
    const saved = await this.decide(id, 'reject', actor, origin, async () => ({
      rejection_reason: checked.value,
    }));
    await this.tell(() => this.deps.notifier.rejected(saved), saved);
    return saved;
  }

  private decide(
    id: string,
    event: 'approve' | 'reject',
    actor: Actor,
    origin: RequestOrigin | undefined,
    effect: (tx: Queryable, row: ActivationRow) => Promise<Partial<ActivationRow>>,
  ): Promise<ActivationRow> {
    return this.deps.db.transaction(async (tx) => {
      const row = await repo.get(tx, id, true);
      if (!row) throw errors.activationRequestNotFound(`There is no activation request ${id}.`);
      const extra = nextState(row.state, event) ? await effect(tx, row) : {};
      const saved = await this.move(tx, row, event, {
        ...extra,
        decided_at: new Date(this.deps.clock()),
        decided_by: `${actor.kind}:${actor.id}`,
      });
      await this.record(tx, actor, `activation.${event}`, row, saved, origin);
      return saved;
    });
  }

  /** Applies `event` (409 INVALID_TRANSITION when the state forbids it) with `changes`, and saves. */
  private async move(
    tx: Queryable,
    row: ActivationRow,
    event: ActivationEvent,
    changes: Partial<ActivationRow & ActivationFields>,
  ): Promise<ActivationRow> {
    const state = nextState(row.state, event);
    if (!state) {
      throw errors.invalidTransition(
        `This activation request is ${row.state}; it can be ${DONE[event]} only when ${allowedFrom(event).join(' or ')}.`,
      );
    }
    return repo.save(tx, { ...row, ...changes, state, updated_at: new Date(this.deps.clock()) });
  }

  private record(
    tx: Queryable,
    actor: Actor,
    action: string,
    before: ActivationRow,
    after: ActivationRow,
    origin?: RequestOrigin,
  ): Promise<void> {
    return this.deps.audit.record(
      {
        actor,
        action,
        target: { type: 'activation_request', id: after.id },
        before,
        after,
        origin,
      },
      tx,
    );
  }

  private async tell(send: () => Promise<void>, row: ActivationRow): Promise<void> {
    try {
      await send();
    } catch (err) {
      this.deps.log.error(
        { err, request: row.id },
        'activation notifier failed; the decision stands',
      );
    }
  }
}
