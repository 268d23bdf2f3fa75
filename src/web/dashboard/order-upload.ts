import {
  CsvProblem,
  ORDER_CSV_COLUMNS,
  ordersFromCsv,
  type CsvOrderRow,
} from '@partner-platform/protocol';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { MAX_BULK_ORDERS, type BulkItemResult } from '../../modules/delivery/index.ts';
import { auditMember, WebRefusal, type Member, type WebKit } from './kit.ts';
import { definePage } from '../../platform/web/page.ts';
import { isId } from '../../platform/ids.ts';

/** The CSV's text, in characters: 100 orders fit with room to spare. */
export const CSV_MAX_CHARS = 96 * 1024;
/** The upload's form body once URL-encoded (a comma is sent as three bytes): this route's own limit. */
export const UPLOAD_BODY_LIMIT = 384 * 1024;
export const UPLOAD_TOO_LARGE = `The CSV is too large to upload (at most ${UPLOAD_BODY_LIMIT / 1024} KiB once sent). Upload at most ${MAX_BULK_ORDERS} orders at a time: split the file.`;
/**
 * The dashboard creates orders with delivery:write only: wallet-funded rows fail alone with
 * INSUFFICIENT_SCOPE, exactly as for an API key without delivery:wallet:spend.
 */
const DASHBOARD_SCOPES = ['delivery:write'] as const;

interface ReportRow {
  line: number;
  reference: string | null;
  ok: boolean;
  orderId: string | null;
  code?: string | undefined;
  message?: string | undefined;
}

/** The CSV rows merged with what creating them answered: rows the CSV could not read fail as an invalid payload. */
function report(rows: CsvOrderRow[], created: BulkItemResult[]): ReportRow[] {
  let next = 0;
  return rows.map((row) => {
    const reference =
      typeof row.order.order_reference === 'string' ? row.order.order_reference : null;
    if (row.problems.length > 0)
      return {
        line: row.line,
        reference,
        ok: false,
        orderId: null,
        code: 'INVALID_ORDER_PAYLOAD',
        message: `${row.problems.join('; ')}.`,
      };
    const r = created[next++]!;
    return {
      line: row.line,
      reference,
      ok: r.ok,
      orderId: r.order_id,
      code: r.code,
      message: r.message,
    };
  });
}

/**
 * Uploading a CSV of orders (the columns of `ppctl orders bulk`, read by the protocol package):
 * each row is created by delivery's BulkOrders, the code behind orders.create_bulk, for one app and
 * environment of the member's partner; the answer is one line per row. Audited with the member as actor.
 */
// biome-ignore lint/complexity/noExcessiveLinesPerFunction: a list of declarations, one per page or operation, each handler a few lines
export function registerOrderUploadRoutes(app: FastifyInstance, web: WebKit): void {
  const { orderUpload, accounts } = web.deps;
  if (!orderUpload) return;
  const { bulk, audit } = orderUpload;

  async function formPage(
    reply: FastifyReply,
    m: Member,
    extra: Record<string, unknown> = {},
    status = 200,
  ) {
    const [apps, partner] = await Promise.all([
      accounts.listApps(m.membership.partner_id),
      accounts.getPartner(m.membership.partner_id),
    ]);
    return web.page(
      reply,
      'orders-upload',
      {
        title: 'Upload orders',
        apps,
        production: partner.production_active,
        columns: Object.keys(ORDER_CSV_COLUMNS),
        maxRows: MAX_BULK_ORDERS,
        maxChars: CSV_MAX_CHARS,
        ...extra,
      },
      status,
    );
  }

  definePage(
    app,
    web,
    { method: 'GET', path: '/dashboard/orders/upload', need: 'create_orders' },
    async ({ reply, actor: m }) => {
      return formPage(reply, m);
    },
  );

  definePage(
    app,
    web,
    {
      method: 'POST',
      path: '/dashboard/orders/upload',
      need: 'create_orders',
      form: {
        csv: { max: CSV_MAX_CHARS, multiline: true, label: 'CSV' },
        environment: { max: 20, label: 'Environment' },
        app_id: { max: 40, label: 'App' },
      },
      route: { bodyLimit: UPLOAD_BODY_LIMIT, config: { tooLarge: UPLOAD_TOO_LARGE } },
    },
    // biome-ignore lint/complexity/noExcessiveLinesPerFunction: the upload's steps (read the file, check every row, create, report) in the order they happen
    async ({ request, reply, actor: m, form: f }) => {
      const again = (error: string) =>
        formPage(
          reply,
          m,
          { error, chosen: { app: f.app_id, environment: f.environment }, csv: f.csv },
          400,
        );
      const partnerId = m.membership.partner_id;
      const [apps, partner] = await Promise.all([
        accounts.listApps(partnerId),
        accounts.getPartner(partnerId),
      ]);
      const chosen = isId('app', f.app_id) ? apps.find((a) => a.id === f.app_id) : undefined;
      if (!chosen)
        return again(
          apps.length === 0
            ? 'Create an app first: orders belong to one of your apps.'
            : 'Choose one of your apps.',
        );
      if (f.environment !== 'staging' && f.environment !== 'production')
        return again('Choose the staging or the production environment.');
      if (f.environment === 'production' && !partner.production_active)
        return again(
          'Your account has no production access yet: upload to staging, or request activation first.',
        );
      if (partner.status !== 'active')
        throw new WebRefusal(
          403,
          'Your account is suspended: no order can be created. Contact the platform’s operations team.',
        );
      if (f.csv.trim() === '')
        return again(
          'The CSV is empty: choose a file or paste its text, starting with the header row.',
        );
      let rows: CsvOrderRow[];
      try {
        rows = ordersFromCsv(f.csv);
      } catch (err) {
        if (err instanceof CsvProblem)
          return again(`The CSV could not be read: ${err.message}. Nothing was created.`);
        throw err;
      }
      if (rows.length === 0)
        return again('The CSV has a header row but no order under it. Nothing was created.');
      if (rows.length > MAX_BULK_ORDERS)
        return again(
          `The CSV has ${rows.length} orders; upload at most ${MAX_BULK_ORDERS} at a time (split the file). Nothing was created.`,
        );
      const readable = rows.filter((r) => r.problems.length === 0);
      const caller = {
        partnerId,
        appId: chosen.id,
        environment: f.environment,
        scopes: DASHBOARD_SCOPES,
      } as const;
      const created =
        readable.length > 0
          ? await bulk.create(
              caller,
              readable.map((r) => r.order),
              request.log,
            )
          : [];
      const lines = report(rows, created);
      const ok = lines.filter((l) => l.ok);
      await auditMember(audit, request, m, {
        action: 'delivery_order.bulk_upload',
        target: { type: 'app', id: chosen.id },
        after: {
          environment: f.environment,
          rows: rows.length,
          created: ok.length,
          failed: rows.length - ok.length,
          order_ids: ok.map((l) => l.orderId),
        },
      });
      return web.page(reply, 'orders-upload-result', {
        title: 'Upload result',
        app: chosen,
        environment: f.environment,
        lines,
        created: ok.length,
        failed: lines.length - ok.length,
      });
    },
  );
}
