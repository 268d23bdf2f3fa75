/**
 * partner-admin: the operator command line, a thin client over the operator API (`/admin/v1`), plus
 * `migrate` for the database. The commands are the tables under commands/; program.ts mounts them.
 */
import '../platform/node-version.ts'; // first: an unsupported Node stops here, before anything else runs
import { loadDotEnv } from '../platform/lifecycle.ts';
import { wantsColour } from './output.ts';
import { run } from './program.ts';

// ADMIN_TOKEN, PARTNER_ADMIN_URL and, for `migrate`, the server's settings may sit in ./.env.
loadDotEnv();

process.exitCode = await run(process.argv.slice(2), process.env, {
  out: (text) => process.stdout.write(text),
  err: (text) => process.stderr.write(text),
  outColour: wantsColour(process.stdout, process.env),
  errColour: wantsColour(process.stderr, process.env),
  errTty: process.stderr.isTTY,
});
