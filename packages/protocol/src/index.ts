export {
  canonicalQuery,
  canonicalRequest,
  rfc3986Encode,
  sha256Hex,
  signCanonical,
  signRequest,
  splitUrl,
  SIGNED_REQUEST_FORMS,
  SIGNED_REQUEST_HEADERS,
} from './signing.ts';
export type { CanonicalRequestParts } from './signing.ts';
export { WEBHOOK_HEADERS, webhookSignature } from './webhooks.ts';
export { CsvProblem, csvRecords, ORDER_CSV_COLUMNS, ordersFromCsv, parseCsv } from './csv.ts';
export type { CsvOrderRow, CsvRecord } from './csv.ts';
