import { parseArgs } from 'node:util';
import { PartnerClient } from '../client.ts';
import { PartnerApiError, PartnerNetworkError } from '../errors.ts';
import { VERSION } from '../version.ts';
import { configureCommand, walletCommands } from './account-commands.ts';
import { closest, GLOBAL_OPTIONS, readLine } from './argv.ts';
import { catalogCommands } from './catalog-commands.ts';
import { clockCommands } from './clock-commands.ts';
import { checkUrl, CLI, UsageError, type Command, type Ctx } from './command.ts';
import { resolveCredentials } from './config.ts';
import { deliveryCommands } from './delivery-commands.ts';
import { listenCommand } from './listen.ts';
import { messagesCommands } from './messages-commands.ts';
import type { Io } from './output.ts';

export const commands: Command[] = [
  configureCommand,
  ...deliveryCommands,
  ...clockCommands,
  ...walletCommands,
  ...messagesCommands,
  ...catalogCommands,
  listenCommand,
];

const GLOBAL = `Anywhere on the line: --json for machine-readable output, --base-url URL for another server, --help for a command's options, --version.`;

function topHelp(): string {
  const width = Math.max(...commands.map((c) => c.name.length)) + 2;
  return [
    `Usage: ${CLI} <command> [options]`,
    '',
    'Commands:',
    ...commands.map((c) => `  ${c.name.padEnd(width)}${c.summary}`),
    '',
    GLOBAL,
    `Credentials: ${CLI} configure, or PARTNER_API_KEY, PARTNER_SIGNING_SECRET and PARTNER_BASE_URL.`,
    'Exit codes: 0 ok, 1 the API or the network failed, 2 wrong usage.',
  ].join('\n');
}

const usageLine = (c: Command) => `${CLI} ${c.name}${c.usage ? ` ${c.usage}` : ''}`;

function commandHelp(c: Command): string {
  return [
    `Usage: ${usageLine(c)} [--json] [--base-url URL]`,
    '',
    c.summary,
    ...(c.help ? ['', ...c.help] : []),
  ].join('\n');
}

const MOST_WORDS = Math.max(...commands.map((c) => c.name.split(' ').length));

/** The command named by the first words (the longest match), and how many words its name takes. */
function find(words: string[]): { command: Command; length: number } | undefined {
  for (let n = MOST_WORDS; n >= 1; n--) {
    const command = commands.find((c) => c.name === words.slice(0, n).join(' '));
    if (command) return { command, length: n };
  }
  return undefined;
}

/** For a group named without its subcommand (`catalog orders`): the group and the words that may follow. */
function group(argv: string[]): { name: string; next: string[] } | undefined {
  for (let n = Math.min(argv.length, MOST_WORDS - 1); n >= 1; n--) {
    const name = argv.slice(0, n).join(' ');
    const next = commands
      .filter((c) => c.name.startsWith(`${name} `))
      .map((c) => c.name.slice(name.length + 1).split(' ')[0]!);
    if (next.length > 0) return { name, next: [...new Set(next)] };
  }
  return undefined;
}

/** Why no command matches the words: a group without (or with a mistyped) subcommand, or an unknown first word. */
function unknownCommand(words: string[]): string {
  const partial = group(words);
  if (partial) {
    const typed = words[partial.name.split(' ').length];
    const guess = typed === undefined ? undefined : closest(typed, partial.next);
    return guess
      ? `error: unknown command "${partial.name} ${typed}" (did you mean "${partial.name} ${guess}"?)`
      : `error: ${partial.name} needs a subcommand: ${partial.next.join(', ')}`;
  }
  const guess = closest(words[0]!, new Set(commands.map((c) => c.name.split(' ')[0]!)));
  return `error: unknown command "${words[0]}"${guess ? ` (did you mean "${guess}"?)` : ''}; see ${CLI} --help`;
}

/** parseArgs' message for an option the command does not take, with the option it probably meant. */
function unknownOption(err: Error, options: object): string {
  const given = /'(-[^']*)'/.exec(err.message)?.[1] ?? '';
  const guess = given.startsWith('--')
    ? closest(given.slice(2).split('=')[0]!, Object.keys(options))
    : undefined;
  return `unknown option ${given}${guess ? ` (did you mean --${guess}?)` : ''}`;
}

function describeError(err: unknown): string {
  if (err instanceof PartnerApiError) {
    const where = [err.code, ...(err.requestId ? [`request ${err.requestId}`] : [])].join(', ');
    const details = (err.details ?? []).map((d) => `\n  ${d.field}: ${d.issue}`).join('');
    return `error: ${err.message} (${where})${details}`;
  }
  if (err instanceof PartnerNetworkError) return `error: ${err.message}`;
  return `error: ${(err as Error).message ?? String(err)}`;
}

/** Runs one invocation and answers the exit code; never throws. */
export async function run(argv: string[], io: Io): Promise<number> {
  const line = readLine(argv);
  if (line.globals.version) {
    io.out(VERSION);
    return 0;
  }
  const found = find(line.words);
  if (!found) {
    const asked = line.globals.help === true || line.words[0] === 'help';
    if (line.words.length > 0 && !asked) {
      io.err(unknownCommand(line.words));
      return 2;
    }
    io.out(topHelp());
    return asked ? 0 : 2;
  }
  const { command, length } = found;
  const options = { ...GLOBAL_OPTIONS, ...command.options };
  let ctx: Ctx | undefined;
  try {
    const { values, positionals } = parseArgs({
      args: line.without(length),
      options,
      allowPositionals: true,
      strict: true,
    });
    if (values.help) {
      io.out(commandHelp(command));
      return 0;
    }
    const [min, max] = command.args ?? [0, 0];
    if (positionals.length < min || positionals.length > max) {
      throw new UsageError(
        positionals.length < min ? 'missing argument' : `unexpected argument "${positionals[max]}"`,
      );
    }
    ctx = {
      values: values as Ctx['values'],
      positionals,
      json: values.json === true,
      io,
      client: () => {
        const creds = resolveCredentials(io.env);
        if ('missing' in creds) {
          throw new UsageError(
            `no ${creds.missing.join(' or ')} configured: run ${CLI} configure --api-key ... --signing-secret ... (or --from data/sandbox-credentials.json), or set PARTNER_API_KEY and PARTNER_SIGNING_SECRET`,
          );
        }
        const baseUrl = values['base-url'] as string | undefined;
        return new PartnerClient(
          baseUrl === undefined ? creds : { ...creds, baseUrl: checkUrl(baseUrl, '--base-url') },
        );
      },
    };
    const code = await command.run(ctx);
    return typeof code === 'number' ? code : 0;
  } catch (err) {
    // parseArgs reports missing values and the like with codes of its own.
    const code = (err as { code?: unknown }).code;
    if (
      err instanceof UsageError ||
      (typeof code === 'string' && code.startsWith('ERR_PARSE_ARGS'))
    ) {
      const message =
        code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION'
          ? unknownOption(err as Error, options)
          : (err as Error).message;
      io.err(`error: ${message}\nusage: ${usageLine(command)}`);
      return 2;
    }
    const hint = err instanceof PartnerApiError && ctx ? command.hint?.(err, ctx) : undefined;
    io.err(`${describeError(err)}${hint ? `\nhint: ${hint}` : ''}`);
    return 1;
  }
}
