import type { CashService } from '../cash/index.ts';
import type { Db, Queryable } from '../../platform/db/index.ts';
import { errors } from '../../platform/errors.ts';
import { newId, ulid } from '../../platform/ids.ts';
import { gatewayClearing, ledger } from '../ledger/index.ts';
import { matchCashDay, matchGatewayDay, type DayResult } from './domain/match.ts';
import { GATEWAYS, readReport, type ReportGateway, type ReportLine } from './domain/report.ts';
import { reportReimport } from './domain/versions.ts';
import type { GatewayReferences, TransferBooks } from './ports.ts';
import {
  reconciliationRepository as repo,
  type DifferenceRow,
  type ReconciliationRow,
} from './repository.ts';
import { saveLine, Tally } from './saved-lines.ts';
import { SettlementApprovals } from './settlements.ts';
import { checkedDay, isGateway, readOr400, RIDER_CASH, SOURCES, TRANSFERS } from './sources.ts';
import { settlementsRepository as settlements } from './settlements-repository.ts';
import { TransferStatements } from './statements.ts';
import {
  asReimported,
  versionsRepository as versions,
  type VersionRow,
} from './versions-repository.ts';

export interface ImportOutcome {
  gateway: ReportGateway;
  lines: number;
  inserted: number;
  /** Lines held that moved on since: now succeeded, now settled, or a rejected settlement corrected. */
  updated: number;
  already_imported: number;
  /** Lines held with another amount, fee or status: kept as a second version and listed on their day. */
  reimported_differently: number;
  /** Settlements now waiting for a second finance operator's approval before they post. */
  settlements_proposed: number;
}

export interface Reconciliation {
  reconciliation: ReconciliationRow;
  differences: DifferenceRow[];
  /** The day's lines imported again differently: both versions. */
  versions: VersionRow[];
}

/**
 * Reconciliation: gateways' reports and the transfer provider's statements imported line by line
 * (a line again changes nothing, a line moved on is brought up to date, another version is kept
 * beside it), each settlement proposed for a second operator's approval, and each day of a source
 * matched against the ledger; a run replaces the day's previous result, and an import or an
 * approval runs again the days already reconciled that it changes.
 */
export class ReconciliationService {
  readonly settlements: SettlementApprovals;
  readonly statements: TransferStatements;

  constructor(
    private readonly db: Db,
    private readonly clock: () => number,
    private readonly references: GatewayReferences,
    private readonly cash: Pick<CashService, 'day'> | undefined,
    transfers: { provider: string; books: readonly TransferBooks[] },
  ) {
    const refresh = (source: string, days: Iterable<string>, by: string) =>
      this.refresh(source, days, by);
    this.settlements = new SettlementApprovals(db, clock, refresh);
    this.statements = new TransferStatements(
      db,
      clock,
      transfers.provider,
      transfers.books,
      refresh,
    );
  }

  /** Imports a report in one transaction; a settlement first held as succeeded is proposed (its journal waits for approval). */
  async importReport(gateway: string, csv: string, by: string): Promise<ImportOutcome> {
    if (!isGateway(gateway))
      throw errors.validation(`Invalid gateway: must be one of ${GATEWAYS.join(', ')}.`, [
        { field: 'gateway', issue: `must be one of ${GATEWAYS.join(', ')}` },
      ]);
    const lines = readOr400('report', () => readReport(gateway, csv));
    const at = new Date(this.clock());
    const tally = new Tally();
    let proposed = 0;
    await this.db.transaction(async (tx) => {
      for (const line of lines) {
        const r = await this.saveReportLine(tx, gateway, line, by, at);
        tally.add(r);
        if (
          (r.saved === 'inserted' || r.saved === 'updated') &&
          line.kind === 'settlement' &&
          line.succeeded &&
          line.amountPesewas > 0
        ) {
          const s = {
            id: `stl_${ulid()}`,
            gateway,
            settlementId: line.reference,
            amountPesewas: line.amountPesewas,
            feePesewas: line.feePesewas,
            settledAt: line.occurredAt,
            by,
            at,
          };
          if (await settlements.propose(tx, s)) proposed++;
        }
      }
    });
    await this.refresh(gateway, tally.days, by);
    return { gateway, ...tally.answer(lines.length), settlements_proposed: proposed };
  }

  private saveReportLine(tx: Queryable, gateway: string, line: ReportLine, by: string, at: Date) {
    const store = {
      insert: () => repo.insertLine(tx, gateway, line, at),
      held: () => repo.heldLine(tx, gateway, line.kind, line.reference),
      replace: () => repo.replaceLine(tx, gateway, line, at),
    };
    const classify = async (held: Parameters<typeof reportReimport>[0]) => {
      const how = reportReimport(held, line);
      // A settlement the checker rejected is replaced by a corrected report, to be proposed again.
      return how === 'conflict' &&
        line.kind === 'settlement' &&
        (await settlements.rejected(tx, gateway, line.reference))
        ? 'progress'
        : how;
    };
    return saveLine(tx, store, classify, {
      source: gateway,
      kind: line.kind,
      reference: line.reference,
      version: line,
      occurredAt: line.occurredAt,
      day: line.day,
      by,
      at,
    });
  }

  /** Reconciles one source's day and stores the result in place of the previous one. */
  async run(source: string, day: string, runBy: string): Promise<Reconciliation> {
    checkedDay(day);
    let result: DayResult;
    if (source === RIDER_CASH) {
      if (!this.cash) throw errors.notFound("Couriers' cash is not served by this instance.");
      const couriers = await this.cash.day(day);
      result = matchCashDay(
        couriers.map((c) => ({
          courierId: c.courier_id,
          collectedPesewas: c.collected_pesewas,
          handedOverPesewas: c.handed_over_pesewas,
        })),
      );
    } else if (source === TRANSFERS) {
      result = await this.statements.day(day);
    } else if (isGateway(source)) {
      result = await this.gatewayDay(source, day);
    } else {
      throw errors.validation(`Invalid source: must be one of ${SOURCES.join(', ')}.`, [
        { field: 'gateway', issue: `must be one of ${SOURCES.join(', ')}` },
      ]);
    }
    const id = newId('rec');
    await this.db.transaction((tx) =>
      repo.replace(tx, { id, source, day, result, runBy, at: new Date(this.clock()) }),
    );
    return (await this.get(source, day))!;
  }

  /** Runs again those of these days the source already has a result for, so that no stored result hides what changed. */
  private async refresh(source: string, days: Iterable<string>, by: string): Promise<void> {
    for (const day of await repo.reconciledDays(this.db, source, [...days]))
      await this.run(source, day, by);
  }

  private async gatewayDay(gateway: ReportGateway, day: string): Promise<DayResult> {
    const entries = (await ledger.accountDay(this.db, gatewayClearing(gateway), day)).filter(
      (e) => e.kind !== 'gateway_settlement',
    );
    const [refs, report, settlementDay, reimported] = await Promise.all([
      this.references([...new Set(entries.map((e) => e.subject_id))]),
      repo.reportDay(this.db, gateway, day),
      repo.settlementsDay(this.db, gateway, day),
      versions.reportDay(this.db, gateway, day),
    ]);
    const settled = await repo.settled(this.db, gateway, [
      ...new Set(report.flatMap((l) => (l.settlementId ? [l.settlementId] : []))),
    ]);
    const ledgerSide = entries.map((e) => ({
      reference: refs.get(e.subject_id) ?? e.subject_id,
      amountPesewas: Number(e.amount_pesewas),
    }));
    return matchGatewayDay(ledgerSide, report, settlementDay, settled, asReimported(reimported));
  }

  async get(source: string, day: string): Promise<Reconciliation | undefined> {
    const reconciliation = await repo.find(this.db, source, checkedDay(day));
    if (!reconciliation) return undefined;
    const [differences, both] = await Promise.all([
      repo.differences(this.db, reconciliation.id),
      this.versionsOf(source, day),
    ]);
    return { reconciliation, differences, versions: both };
  }

  private versionsOf(source: string, day: string): Promise<VersionRow[]> {
    if (source === TRANSFERS) return this.statements.versions(day);
    return isGateway(source) ? versions.reportDay(this.db, source, day) : Promise.resolve([]);
  }

  async list(source: string | undefined, limit = 100): Promise<ReconciliationRow[]> {
    return repo.list(this.db, source, limit);
  }
}
