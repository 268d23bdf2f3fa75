/**
 * partner-admin: the operator command line, a thin client over the operator API (`/admin/v1`).
 *
 *   partner-admin <group> <command> [arguments] [--json] [--url URL] [--token TOKEN]
 *
 * Configuration: PARTNER_ADMIN_URL (default http://localhost:8080) and ADMIN_TOKEN, or --url / --token.
 * Exit codes: 0 success, 1 the API refused or could not be reached, 2 bad usage or configuration.
 * The commands themselves are the table in commands.ts.
 */
import { ConfigError, parseCommand, parseTokens, parseUsage, UsageError, type Value } from './args.ts';
import { commands, groups, type Command } from './commands.ts';
import { ApiError, ConnectionError, send, type Connection } from './http.ts';
import { auto, columns } from './output.ts';

const PROG = 'partner-admin';
const DEFAULT_URL = 'http://localhost:8080';

const GLOBALS = {
  url: { type: 'string' },
  token: { type: 'string' },
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

const GLOBAL_HELP = `Global options:
${columns([
  ['--url URL', `Operator API base URL (env PARTNER_ADMIN_URL, default ${DEFAULT_URL})`],
  ['--token TOKEN', 'Operator token (env ADMIN_TOKEN; the variable keeps it out of the process list)'],
  ['--json', 'Print the raw JSON answer (for an error: the error body, besides the message on stderr)'],
  ['-h, --help', 'Show help for the tool, a group or a command'],
])}

Exit codes: 0 success, 1 the API refused or could not be reached, 2 bad usage or configuration.`;

const inGroup = (group: string) => commands.filter((c) => c.name.split(' ')[0] === group);

function topHelp(): string {
  const lines: [string, string][] = [];
  for (const [group, summary] of Object.entries(groups)) {
    lines.push([group, summary]);
    for (const c of inGroup(group)) lines.push([`  ${c.name.split(' ')[1]}`, c.summary]);
  }
  return `${PROG}: run the partner platform through its operator API (/admin/v1).

Usage: ${PROG} <group> <command> [arguments] [options]

Commands:
${columns(lines)}

Run "${PROG} <group> --help" or "${PROG} <group> <command> --help" for arguments.`;
}

function groupHelp(group: string): string {
  const lines = inGroup(group).map((c) => `  ${PROG} ${c.name} ${c.usage}\n      ${c.summary}`);
  return `Usage: ${PROG} ${group} <command> [arguments] [options]

${groups[group]}.

Commands:
${lines.join('\n')}`;
}

function commandHelp(c: Command): string {
  const spec = parseUsage(c.usage);
  const rows: [string, string][] = [
    ...spec.positionals.map((p): [string, string] => [p.name, c.help?.[p.name] ?? '']),
    ...spec.options.map((o): [string, string] => [`--${o.flag}${o.placeholder ? ` ${o.placeholder}` : ''}`, c.help?.[o.flag] ?? '']),
  ];
  return `Usage: ${PROG} ${c.name} ${c.usage} [options]

${c.summary}.
${rows.length > 0 ? `\nArguments:\n${columns(rows)}` : ''}`;
}

function connection(globals: Record<string, Value>, env: NodeJS.ProcessEnv): Connection {
  const given = (typeof globals.url === 'string' ? globals.url : env.PARTNER_ADMIN_URL) || DEFAULT_URL;
  let url: URL;
  try {
    url = new URL(given);
  } catch {
    throw new ConfigError(`the operator API URL "${given}" is not a URL (set PARTNER_ADMIN_URL or pass --url, e.g. ${DEFAULT_URL})`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new ConfigError(`the operator API URL must be http:// or https:// (got "${given}")`);
  const baseUrl = url.href.replace(/\/+$/, '').replace(/\/admin\/v1$/, '');
  const token = ((typeof globals.token === 'string' ? globals.token : env.ADMIN_TOKEN) ?? '').trim();
  if (!token) throw new ConfigError('no operator token: set ADMIN_TOKEN (the server\'s ADMIN_TOKEN) or pass --token TOKEN');
  return { baseUrl, token };
}

const HINTS: Record<string, string> = {
  INVALID_ADMIN_TOKEN: "check ADMIN_TOKEN (or --token): it must equal the server's ADMIN_TOKEN",
  NOT_FOUND: 'is --url / PARTNER_ADMIN_URL right? A server without ADMIN_TOKEN has no operator API at all (404)',
};

interface Io {
  out: (text: string) => void;
  err: (text: string) => void;
}

/** Runs one command line; resolves to the exit code. `usage` is the help of the level reached, shown on usage errors. */
export async function run(argv: string[], env: NodeJS.ProcessEnv, io: Io): Promise<number> {
  let usage = topHelp();
  try {
    // First pass, lenient: find the group and command words among the global options.
    const first = parseTokens(argv, GLOBALS, false);
    const words = first.tokens.filter((t) => t.kind === 'positional').slice(0, 2);
    const [group, name] = words.map((t) => (t as { value: string }).value);
    if (group !== undefined) {
      if (!(group in groups)) throw new UsageError(`unknown command group "${group}" (known: ${Object.keys(groups).join(', ')})`);
      usage = groupHelp(group);
    }
    const command = name === undefined ? undefined : commands.find((c) => c.name === `${group} ${name}`);
    if (name !== undefined && !command) throw new UsageError(`unknown command "${group} ${name}"`);
    if (command) usage = commandHelp(command);
    if (first.values.help === true) {
      io.out(`${usage}\n\n${GLOBAL_HELP}`);
      return 0;
    }
    if (!command) throw new UsageError(group === undefined ? 'missing command' : `missing ${group} command`);

    // Second pass, strict: the command's own arguments.
    const skip = new Set(words.map((t) => t.index));
    const rest = argv.filter((_, i) => !skip.has(i));
    const { args, globals } = parseCommand(parseUsage(command.usage), rest, GLOBALS);
    const request = command.request(args);
    const conn = connection(globals, env);
    const json = globals.json === true;
    try {
      const answer = await send(conn, request);
      io.out(json ? JSON.stringify(answer.body ?? {}, null, 2) : (command.show ?? auto)(answer.body, args));
      return 0;
    } catch (err) {
      if (err instanceof ApiError && json && err.answer.body !== undefined) io.out(JSON.stringify(err.answer.body, null, 2));
      throw err;
    }
  } catch (err) {
    if (err instanceof UsageError) {
      io.err(`error: ${err.message}\n\n${usage}\n\nGlobal options: --url URL, --token TOKEN, --json, --help.`);
      return 2;
    }
    if (err instanceof ConfigError) {
      io.err(`error: ${err.message}`);
      return 2;
    }
    if (err instanceof ConnectionError) {
      io.err(`error: ${err.message}`);
      return 1;
    }
    if (err instanceof ApiError) {
      const lines = [`error: ${err.message} (${err.code}, request ${err.answer.requestId ?? 'unknown'})`];
      for (const d of err.details) lines.push(`  - ${d.field ? `${d.field}: ` : ''}${d.issue ?? ''}`);
      if (HINTS[err.code]) lines.push(`hint: ${HINTS[err.code]}`);
      io.err(lines.join('\n'));
      return 1;
    }
    throw err;
  }
}

process.exitCode = await run(process.argv.slice(2), process.env, {
  out: (text) => process.stdout.write(`${text}\n`),
  err: (text) => process.stderr.write(`${text}\n`),
});
