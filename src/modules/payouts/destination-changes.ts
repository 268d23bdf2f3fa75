import type { TransferProvider } from '../../integrations/transfers/types.ts';
import type { Db, Queryable } from '../../platform/db/index.ts';
import { errors } from '../../platform/errors.ts';
import type { PayeeDirectory } from './directory.ts';
import { newId } from '../../platform/ids.ts';
import type { Logger } from '../../platform/logger.ts';
import { changesRepository as changes, type DestinationChangeRow } from './changes-repository.ts';
import {
  namesMatch,
  parseDestination,
  payeeKey,
  toDestination,
  type DestinationInput,
  type PayeeKind,
} from './domain/destinations.ts';
import type { DestinationSwitch, Switched } from './destination-switch.ts';
import type { DestinationRow } from './repository.ts';

/** How a payee's old contact hears of a change: vendors by text (after the commit), partners' owners by mail (queued in it). */
export interface DestinationNotices {
  text(to: string, body: string): Promise<void>;
  /** The partner's owners' addresses (read before the change's transaction opens). */
  ownerEmails(partnerId: string): Promise<string[]>;
  mail(tx: Queryable, to: string, subject: string, body: string): Promise<void>;
}

/** Only the last digits of a number or account are told (a text can be read over a shoulder too). */
const shown = (d: {
  kind: string;
  network: string | null;
  bank_code: string | null;
  number: string;
}) =>
  `${d.kind === 'mobile_money' ? `${(d.network ?? '').toUpperCase()} mobile money` : `bank ${d.bank_code}`} •••${d.number.slice(-3)}`;

/**
 * Operators' changes of where a payee is paid (maker-checker): a finance operator proposes, a second
 * operator approves, and only then does the destination change (its cooling period starting then).
 * The payee's old contact is told: the vendor's contact phone and its old wallet by text, the
 * partner's owners by mail.
 */
export class DestinationChanges {
  constructor(
    private readonly deps: {
      db: Db;
      clock: () => number;
      log: Logger;
      provider: TransferProvider;
      directory: PayeeDirectory;
      destinations: DestinationSwitch;
      notices?: DestinationNotices | undefined;
    },
  ) {}

  /** Proposes a change after checking it; the provider's name lookup is made first, outside any transaction. */
  async propose(
    kind: PayeeKind,
    id: string,
    input: DestinationInput,
    by: string,
  ): Promise<{ change: DestinationChangeRow; name_matches: boolean | null }> {
    const parsed = parseDestination(input);
    if ('problems' in parsed)
      throw errors.validation(
        `Invalid destination: ${parsed.problems.map((p) => `${p.field} ${p.issue}`).join('; ')}.`,
        parsed.problems,
      );
    if (kind === 'courier' && parsed.destination.kind !== 'mobile_money')
      throw errors.validation('Couriers are paid to a mobile money wallet only.', [
        { field: 'kind', issue: 'must be mobile_money for a courier' },
      ]);
    if (!(await this.deps.directory.exists(kind, id)))
      throw errors.payeeNotFound(`No ${kind} ${id}.`);
    const resolved = await this.deps.provider.resolveName(parsed.destination);
    const change = await this.deps.db.transaction((tx) =>
      changes.propose(tx, kind, id, newId('pdc'), parsed.destination, resolved, by, this.now()),
    );
    if (!change)
      throw errors.invalidTransition(
        `A destination change for ${kind} ${id} already waits for approval: approve or reject it first.`,
      );
    return {
      change,
      name_matches: resolved === null ? null : namesMatch(parsed.destination.name, resolved),
    };
  }

  pending(kind: PayeeKind, id: string): Promise<DestinationChangeRow | undefined> {
    return changes.pending(this.deps.db, payeeKey(kind, id));
  }

  /**
   * A second operator approves: the destination is replaced (changed now, so payouts to it wait out
   * the cooling period), the payee's unsent payouts are made again for it, the provider verifies it
   * and the old contact is told. The proposer cannot approve their own change.
   */
  async approve(kind: PayeeKind, id: string, changeId: string, by: string): Promise<Switched> {
    const change = await this.waiting(kind, id, changeId);
    if (change.proposed_by === by)
      throw errors.sameOperator(
        'A destination change is approved by a second operator, not the one who proposed it.',
      );
    const owners = kind === 'partner' ? ((await this.deps.notices?.ownerEmails(id)) ?? []) : [];
    const switched = await this.deps.destinations.replace(kind, id, toDestination(change), {
      resolvedName: change.resolved_name,
      by: `${change.proposed_by}, approved by ${by}`,
      setBy: [change.proposed_by, by],
      inside: async (tx, { previous, saved }) => {
        if (!(await changes.decide(tx, changeId, 'approved', by, saved.changed_at)))
          throw errors.invalidTransition(
            `Destination change ${changeId} is no longer waiting for approval.`,
          );
        for (const to of owners)
          await this.deps.notices?.mail(
            tx,
            to,
            'Your Partner Platform payout destination was changed',
            this.notice(saved, previous),
          );
      },
    });
    if (kind !== 'partner') await this.textPayee(kind, id, switched.saved, switched.previous);
    return switched;
  }

  /** Any finance operator (the proposer too, to withdraw it) rejects a waiting change; nothing else changes. */
  async reject(
    kind: PayeeKind,
    id: string,
    changeId: string,
    by: string,
  ): Promise<DestinationChangeRow> {
    await this.waiting(kind, id, changeId);
    const rejected = await this.deps.db.transaction((tx) =>
      changes.decide(tx, changeId, 'rejected', by, this.now()),
    );
    if (!rejected)
      throw errors.invalidTransition(
        `Destination change ${changeId} is no longer waiting for approval.`,
      );
    return rejected;
  }

  private async waiting(
    kind: PayeeKind,
    id: string,
    changeId: string,
  ): Promise<DestinationChangeRow> {
    const change = await changes.find(this.deps.db, payeeKey(kind, id), changeId);
    if (!change) throw errors.payeeNotFound(`No destination change ${changeId} for ${kind} ${id}.`);
    if (change.status !== 'pending')
      throw errors.invalidTransition(
        `Destination change ${changeId} is ${change.status}, not waiting for approval.`,
      );
    return change;
  }

  private notice(saved: DestinationRow, previous: DestinationRow | undefined): string {
    const from = previous ? ` from ${shown(previous)}` : '';
    return `Partner Platform: your payout destination was changed${from} to ${shown(saved)} (${saved.name}). If you did not ask for this, call us at once.`;
  }

  /**
   * A text to the vendor's contact phone or the courier's own and, when it was a wallet, to the old
   * wallet's number; a failure is logged, the change stands.
   */
  private async textPayee(
    kind: 'vendor' | 'courier',
    id: string,
    saved: DestinationRow,
    previous: DestinationRow | undefined,
  ): Promise<void> {
    const { directory } = this.deps;
    const phone = await (kind === 'vendor'
      ? directory.vendorPhone(id)
      : directory.courierPhone(id));
    const oldWallet =
      previous?.kind === 'mobile_money' ? `+233${previous.number.slice(1)}` : undefined;
    for (const to of new Set([phone, oldWallet].filter((n): n is string => n !== undefined))) {
      await this.deps.notices
        ?.text(to, this.notice(saved, previous))
        .catch((err: unknown) =>
          this.deps.log.warn(
            { err, payee: payeeKey(kind, id) },
            'could not text the payee of its destination change',
          ),
        );
    }
  }

  private now(): Date {
    return new Date(this.deps.clock());
  }
}
