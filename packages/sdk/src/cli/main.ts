#!/usr/bin/env node
// The `ppctl` command (the partner CLI). Exit codes: 0 ok, 1 the API or the network failed, 2 wrong usage.
import './node-check.ts';
import { run } from './run.ts';

process.exitCode = await run(process.argv.slice(2), {
  out: (text) => void process.stdout.write(`${text}\n`),
  err: (text) => void process.stderr.write(`${text}\n`),
  ...(process.stderr.isTTY ? { progress: (text: string) => void process.stderr.write(text) } : {}),
  env: process.env,
});
