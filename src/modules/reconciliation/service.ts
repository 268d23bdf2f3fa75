import type { CashService } from '../cash/index.ts';
import type { Db } from '../../platform/db/index.ts';
import { errors } from '../../platform/errors.ts';
import { newId } from '../../platform/ids.ts';
import { gatewayClearing, ledger } from '../ledger/index.ts';
import { settlementJournal } from './domain/journals.ts';
import { matchCashDay, matchGatewayDay, type DayResult } from './domain/match.ts';
import { GATEWAYS, readReport, ReportProblem, type ReportGateway, type ReportLine } from './domain/report.ts';
import { reconciliationRepository as repo, type DifferenceRow, type ReconciliationRow } from './repository.ts';

/** The references the gateways saw for these ledger subjects (top-ups, sales), by subject id; the app fills it from their modules. */
export type GatewayReferences = (subjectIds: readonly string[]) => Promise<Map<string, string>>;

/** Couriers' cash is reconciled as one more source beside the gateways. */
export const RIDER_CASH = 'rider_cash';
export const SOURCES = [...GATEWAYS, RIDER_CASH] as const;
export type Source = (typeof SOURCES)[number];

export interface ImportOutcome {
  gateway: ReportGateway;
  lines: number;
  inserted: number;
  /** Lines held as pending or failed that the report now says succeeded. */
  now_succeeded: number;
  already_imported: number;
  settlements_posted: number;
}

export interface Reconciliation {
  reconciliation: ReconciliationRow;
  differences: DifferenceRow[];
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;

export function isGateway(value: string): value is ReportGateway {
  return (GATEWAYS as readonly string[]).includes(value);
}

/** A real calendar day, YYYY-MM-DD, or a 400. */
export function checkedDay(day: string): string {
  const parsed = new Date(`${day}T00:00:00Z`);
  if (!DAY.test(day) || Number.isNaN(parsed.getTime()) || parsed.toISOString().slice(0, 10) !== day) {
    throw errors.validation('Invalid date: must be a real day, YYYY-MM-DD.', [{ field: 'date', issue: 'must be a real day, YYYY-MM-DD' }]);
  }
  return day;
}

/**
 * Reconciliation: gateways' reports imported once, each settlement posted to the bank once, and
 * each day of a gateway (or of couriers' cash) matched against the ledger; a run replaces the day's
 * previous result. Ledger journals of a day are matched by their subject's gateway reference.
 */
export class ReconciliationService {
  constructor(
    private readonly db: Db,
    private readonly clock: () => number,
    private readonly references: GatewayReferences,
    private readonly cash: Pick<CashService, 'day'> | undefined,
  ) {}

  /**
   * Imports a report in one transaction: lines already held change nothing, except one that now
   * succeeded; a settlement line posts its journal when it is first held as succeeded (so once).
   */
  async importReport(gateway: string, csv: string): Promise<ImportOutcome> {
    if (!isGateway(gateway)) throw errors.validation(`Invalid gateway: must be one of ${GATEWAYS.join(', ')}.`, [{ field: 'gateway', issue: `must be one of ${GATEWAYS.join(', ')}` }]);
    let lines: ReportLine[];
    try {
      lines = readReport(gateway, csv);
    } catch (err) {
      if (err instanceof ReportProblem) throw errors.validation(`The report cannot be imported, nothing was: ${err.message}.`, err.problems.map((issue) => ({ field: 'csv', issue })));
      throw err;
    }
    const at = new Date(this.clock());
    return this.db.transaction(async (tx) => {
      let inserted = 0;
      let succeeded = 0;
      let settlements = 0;
      for (const line of lines) {
        const saved = await repo.saveLine(tx, gateway, line, at);
        if (saved === 'kept') continue;
        if (saved === 'inserted') inserted++;
        else succeeded++;
        if (line.kind === 'settlement' && line.succeeded && line.amountPesewas > 0) {
          await ledger.postJournal(tx, settlementJournal(gateway, line.reference, line.amountPesewas, line.feePesewas), line.occurredAt);
          settlements++;
        }
      }
      return { gateway, lines: lines.length, inserted, now_succeeded: succeeded, already_imported: lines.length - inserted - succeeded, settlements_posted: settlements };
    });
  }

  /** Reconciles one source's day and stores the result in place of the previous one. */
  async run(source: string, day: string, runBy: string): Promise<Reconciliation> {
    checkedDay(day);
    let result: DayResult;
    if (source === RIDER_CASH) {
      if (!this.cash) throw errors.notFound("Couriers' cash is not served by this instance.");
      const couriers = await this.cash.day(day);
      result = matchCashDay(couriers.map((c) => ({ courierId: c.courier_id, collectedPesewas: c.collected_pesewas, handedOverPesewas: c.handed_over_pesewas })));
    } else if (isGateway(source)) {
      result = await this.gatewayDay(source, day);
    } else {
      throw errors.validation(`Invalid source: must be one of ${SOURCES.join(', ')}.`, [{ field: 'gateway', issue: `must be one of ${SOURCES.join(', ')}` }]);
    }
    const id = newId('rec');
    await this.db.transaction((tx) => repo.replace(tx, { id, source, day, result, runBy, at: new Date(this.clock()) }));
    return (await this.get(source, day))!;
  }

  private async gatewayDay(gateway: ReportGateway, day: string): Promise<DayResult> {
    const entries = (await ledger.accountDay(this.db, gatewayClearing(gateway), day)).filter((e) => e.kind !== 'gateway_settlement');
    const [refs, report, settlements] = await Promise.all([
      this.references([...new Set(entries.map((e) => e.subject_id))]),
      repo.reportDay(this.db, gateway, day),
      repo.settlementsDay(this.db, gateway, day),
    ]);
    const settled = await repo.settled(this.db, gateway, [...new Set(report.flatMap((l) => (l.settlementId ? [l.settlementId] : [])))]);
    const ledgerSide = entries.map((e) => ({ reference: refs.get(e.subject_id) ?? e.subject_id, amountPesewas: Number(e.amount_pesewas) }));
    return matchGatewayDay(ledgerSide, report, settlements, settled);
  }

  async get(source: string, day: string): Promise<Reconciliation | undefined> {
    const reconciliation = await repo.find(this.db, source, checkedDay(day));
    return reconciliation && { reconciliation, differences: await repo.differences(this.db, reconciliation.id) };
  }

  async list(source: string | undefined, limit = 100): Promise<ReconciliationRow[]> {
    return repo.list(this.db, source, limit);
  }
}
