import { readFileSync } from 'node:fs';
import { stripVTControlCharacters } from 'node:util';
import { Command as Cli, CommanderError } from 'commander';
import { ConfigError, declare, UsageError } from './args.ts';
import type { Command } from './command.ts';
import { commands, groups } from './commands/index.ts';
import { ApiError, requestFor, send, type Connection } from './http.ts';
import type { Value } from './args.ts';
import { migrateDatabase, showMigrations } from './migrate.ts';
import { auto, paint } from './output.ts';

const PROG = 'partner-admin';
const DEFAULT_URL = 'http://localhost:8080';
const VERSION: string = JSON.parse(
  readFileSync(new URL('../../package.json', import.meta.url), 'utf8'),
).version;

const MORE_HELP = `
Configuration: PARTNER_ADMIN_URL (default ${DEFAULT_URL}) and ADMIN_TOKEN, or --url and --token.
"migrate" reads the server's own settings instead (DATABASE_URL, DATA_DIR, DATABASE_SCHEMA).
Colour on a terminal; none with NO_COLOR set or when the output is not a terminal.
Exit codes: 0 success, 1 the API refused or could not be reached (or the database failed), 2 bad usage or configuration.`;

const HINTS: Record<string, string> = {
  INVALID_ADMIN_TOKEN: "check ADMIN_TOKEN (or --token): it must equal the server's ADMIN_TOKEN",
  NOT_FOUND:
    'is --url / PARTNER_ADMIN_URL right? A server without ADMIN_TOKEN has no operator API at all (404)',
};

export interface Io {
  /** Writers for stdout and stderr, the text as it is (it ends with its own newline). */
  out: (text: string) => void;
  err: (text: string) => void;
  /** Whether each stream gets colour (see wantsColour in output.ts). */
  outColour: boolean;
  errColour: boolean;
  /** Whether stderr is a terminal (a progress bar redrawn in place; plain lines otherwise). */
  errTty?: boolean;
}

interface Globals {
  url?: string;
  token?: string;
  json?: boolean;
}

/** Writers for stdout and stderr (commander's included) that strip styles where the stream gets no colour, and line printers over them. */
function printer(io: Io) {
  const clean = (colour: boolean, text: string) => (colour ? text : stripVTControlCharacters(text));
  const write = {
    out: (text: string) => io.out(clean(io.outColour, text)),
    err: (text: string) => io.err(clean(io.errColour, text)),
  };
  return {
    write,
    out: (text: string) => write.out(`${text}\n`),
    err: (text: string) => write.err(`${text}\n`),
  };
}
type Printer = ReturnType<typeof printer>;

function connection(globals: Globals, env: NodeJS.ProcessEnv): Connection {
  const given = globals.url || env.PARTNER_ADMIN_URL || DEFAULT_URL;
  let url: URL;
  try {
    url = new URL(given);
  } catch {
    throw new ConfigError(
      `the operator API URL "${given}" is not a URL (set PARTNER_ADMIN_URL or pass --url, e.g. ${DEFAULT_URL})`,
    );
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new ConfigError(`the operator API URL must be http:// or https:// (got "${given}")`);
  const baseUrl = url.href.replace(/\/+$/, '').replace(/\/admin\/v1$/, '');
  const token = (globals.token ?? env.ADMIN_TOKEN ?? '').trim();
  if (!token)
    throw new ConfigError(
      "no operator token: set ADMIN_TOKEN (the server's ADMIN_TOKEN) or pass --token TOKEN",
    );
  return { baseUrl, token };
}

/** Mounts one API command under its group: arguments from its usage line, the call, and its output. */
function addCommand(group: Cli, c: Command, env: NodeJS.ProcessEnv, print: Printer, io: Io): void {
  const cli = group.command(c.name.split(' ')[1]!).description(c.summary);
  const read = declare(cli, c.usage ?? '', c.help);
  cli.addHelpText('after', `\nCalls ${c.route.replace(' ', ' /admin/v1')}.`);
  cli.action(async () => {
    const args = read(cli.processedArgs, cli.opts());
    const globals = cli.optsWithGlobals<Globals>();
    let payload: unknown;
    try {
      payload = c.payload?.(args);
    } catch (err) {
      // Reported like commander's own usage errors (same hint, exit code 2).
      if (err instanceof UsageError)
        cli.error(`error: ${err.message}`, { exitCode: 2, code: 'partner-admin.usage' });
      throw err;
    }
    const conn = connection(globals, env);
    try {
      let answer = await send(conn, requestFor(c.route, args, payload));
      if (c.wait && args.wait) answer = await follow(conn, c.wait, answer.body, print, io, env);
      print.out(
        globals.json
          ? JSON.stringify(answer.body ?? {}, null, 2)
          : (c.show ?? auto)(answer.body, args),
      );
    } catch (err) {
      if (err instanceof ApiError && globals.json && err.answer.body !== undefined)
        print.out(JSON.stringify(err.answer.body, null, 2));
      throw err;
    }
    const notice = c.notice?.(args);
    if (notice) print.err(paint('yellow', notice));
  });
}

/**
 * `--wait`: the wait's route again every second (PARTNER_ADMIN_POLL_MS) until it is done. On a terminal a
 * bar redrawn in place on stderr; otherwise a plain line on stderr each time the progress changes.
 */
async function follow(
  conn: Connection,
  wait: NonNullable<Command['wait']>,
  first: unknown,
  print: Printer,
  io: Io,
  env: NodeJS.ProcessEnv,
) {
  const every = Number(env.PARTNER_ADMIN_POLL_MS) > 0 ? Number(env.PARTNER_ADMIN_POLL_MS) : 1000;
  let answer = { status: 200, body: first, requestId: undefined as string | undefined };
  let last = '';
  for (;;) {
    const body = answer.body as Record<string, Value>;
    const { count, of, text } = wait.progress(body);
    if (io.errTty) {
      const width = 30;
      const filled = of > 0 ? Math.min(width, Math.round((count / of) * width)) : 0;
      io.err(`\r[${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${count}/${of} ${text}\x1b[K`);
    } else if (text !== last) print.err(`${count}/${of} ${text}`);
    last = text;
    if (wait.done(body)) break;
    await new Promise((resolve) => setTimeout(resolve, every));
    answer = await send(
      conn,
      requestFor(
        wait.route,
        Object.fromEntries(Object.entries(body).map(([k, v]) => [k.toUpperCase(), v])),
        undefined,
      ),
    );
  }
  if (io.errTty) io.err('\n');
  return answer;
}

function program(env: NodeJS.ProcessEnv, io: Io, print: Printer): Cli {
  const title = (text: string) => paint('bold', text);
  const name = (text: string) => paint('cyan', text);
  const root = new Cli(PROG)
    .description('Run the partner platform through its operator API (/admin/v1).')
    .version(VERSION, '-V, --version', 'Print the version')
    .option('--url <URL>', `Operator API base URL (env PARTNER_ADMIN_URL, default ${DEFAULT_URL})`)
    .option(
      '--token <TOKEN>',
      'Operator token (env ADMIN_TOKEN; the variable keeps it out of the process list)',
    )
    .option(
      '--json',
      'Print the raw JSON answer (for an error: the error body, besides the message on stderr)',
    )
    .helpOption('-h, --help', 'Show help for the tool, a group or a command')
    .helpCommand(false)
    .configureOutput({
      writeOut: print.write.out,
      writeErr: print.write.err,
      getOutHasColors: () => io.outColour,
      getErrHasColors: () => io.errColour,
      outputError: (text, write) => write(paint('red', text)),
    })
    .configureHelp({
      showGlobalOptions: true,
      styleTitle: title,
      styleCommandText: name,
      styleSubcommandText: name,
    })
    .showHelpAfterError('(add --help for usage)')
    .showSuggestionAfterError()
    .exitOverride()
    .addHelpText('after', MORE_HELP);
  // Subcommands inherit the settings above: configure first, then add them.
  for (const [group, summary] of Object.entries(groups)) {
    const members = commands.filter((x) => x.name.startsWith(`${group} `));
    const cli = root
      .command(group)
      .description(summary)
      .summary(`${summary} (${members.map((c) => c.name.split(' ')[1]).join(', ')})`)
      .helpCommand(false);
    for (const c of members) addCommand(cli, c, env, print, io);
  }
  root
    .command('migrate')
    .description(
      "Apply the pending database migrations (the server's DATABASE_URL / DATA_DIR) and list them",
    )
    .option('--status', 'Only list applied and pending migrations; apply nothing')
    .action(async (opts: { status?: boolean }, cli: Cli) => {
      const report = await migrateDatabase(env, opts.status === true);
      print.out(
        cli.optsWithGlobals<Globals>().json
          ? JSON.stringify(report, null, 2)
          : showMigrations(report),
      );
    });
  return root;
}

/** Runs one command line; resolves to the exit code (0 success, 1 refused or unreachable, 2 usage or configuration). */
export async function run(argv: string[], env: NodeJS.ProcessEnv, io: Io): Promise<number> {
  const print = printer(io);
  const root = program(env, io, print);
  if (argv.length === 0) {
    root.outputHelp({ error: true });
    return 2;
  }
  try {
    await root.parseAsync(argv, { from: 'user' });
    return 0;
  } catch (err) {
    // Commander has printed its message (with a "did you mean" where one fits) or the help already.
    if (err instanceof CommanderError) return err.exitCode === 0 ? 0 : 2;
    if (err instanceof ConfigError) {
      print.err(paint('red', `error: ${err.message}`));
      return 2;
    }
    if (err instanceof ApiError) {
      const lines = [
        paint(
          'red',
          `error: ${err.message} (${err.code}, request ${err.answer.requestId ?? 'unknown'})`,
        ),
      ];
      for (const d of err.details)
        lines.push(`  - ${d.field ? `${d.field}: ` : ''}${d.issue ?? ''}`);
      if (HINTS[err.code]) lines.push(paint('yellow', `hint: ${HINTS[err.code]}`));
      print.err(lines.join('\n'));
      return 1;
    }
    // The API out of reach, or the database for migrate: one line, no stack.
    print.err(paint('red', `error: ${err instanceof Error ? err.message : String(err)}`));
    return 1;
  }
}
