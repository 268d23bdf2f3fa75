#!/usr/bin/env node
// The `partner` command. Exit codes: 0 ok, 1 the API or the network failed, 2 wrong usage.
import { run } from './run.ts';

process.exitCode = await run(process.argv.slice(2), {
  out: (text) => process.stdout.write(`${text}\n`),
  err: (text) => process.stderr.write(`${text}\n`),
  ...(process.stderr.isTTY ? { progress: (text: string) => process.stderr.write(text) } : {}),
  env: process.env,
});
