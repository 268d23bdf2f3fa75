/**
 * `npm run simulate -- --couriers 30 --orders-per-hour 200 --hours 2 --speed 60` (docs/operations.md):
 * a simulated day on the real server (in this process, on DATABASE_URL or embedded PGlite), its
 * couriers driven through the courier app's endpoints and its partners through the SDK; prints the
 * day's figures and money checks, and exits 1 when a money check fails or an order is stuck.
 */
import { runDay } from './day.ts';
import { readOptions } from './options.ts';
import { failures, printReport } from './report.ts';

async function main(): Promise<number> {
  const options = readOptions(process.argv.slice(2));
  const report = await runDay(options, (line) => console.log(line));
  printReport(options, report, (line) => console.log(line));
  const failed = [...failures(report), ...report.problems.map((p) => `problem: ${p}`)];
  for (const f of failed) console.error(`FAILED: ${f}`);
  return failed.length ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error(err);
    process.exit(2);
  },
);
