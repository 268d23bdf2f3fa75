import { parseArgs } from 'node:util';
import { PartnerClient } from '../client.ts';
import { PartnerApiError, PartnerNetworkError } from '../errors.ts';
import { VERSION } from '../version.ts';
import { configureCommand, walletCommands } from './account-commands.ts';
import { catalogCommands } from './catalog-commands.ts';
import { CLI, UsageError, type Command, type Ctx } from './command.ts';
import { resolveCredentials } from './config.ts';
import { deliveryCommands } from './delivery-commands.ts';
import { listenCommand } from './listen.ts';
import type { Io } from './output.ts';

export const commands: Command[] = [configureCommand, ...deliveryCommands, ...walletCommands, ...catalogCommands, listenCommand];

const GLOBAL = `--json for machine-readable output, --help for a command's options, ${CLI} --version for the version.`;

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
  return [`Usage: ${usageLine(c)} [--json]`, '', c.summary, ...(c.help ? ['', ...c.help] : [])].join('\n');
}

const MOST_WORDS = Math.max(...commands.map((c) => c.name.split(' ').length));

/** The command named by the first words (the longest match). */
function find(argv: string[]): { command: Command; rest: string[] } | undefined {
  for (let n = MOST_WORDS; n >= 1; n--) {
    const command = commands.find((c) => c.name === argv.slice(0, n).join(' '));
    if (command) return { command, rest: argv.slice(n) };
  }
  return undefined;
}

/** For a group named without its subcommand (`catalog orders`): the group and the words that may follow. */
function group(argv: string[]): { name: string; next: string[] } | undefined {
  for (let n = Math.min(argv.length, MOST_WORDS - 1); n >= 1; n--) {
    const name = argv.slice(0, n).join(' ');
    const next = commands.filter((c) => c.name.startsWith(`${name} `)).map((c) => c.name.slice(name.length + 1).split(' ')[0]!);
    if (next.length > 0) return { name, next: [...new Set(next)] };
  }
  return undefined;
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
  if (argv.length === 0 || argv[0] === '--help' || argv[0] === '-h' || argv[0] === 'help') {
    io.out(topHelp());
    return argv.length === 0 ? 2 : 0;
  }
  if (argv[0] === '--version' || argv[0] === '-v') {
    io.out(VERSION);
    return 0;
  }
  const found = find(argv);
  if (!found) {
    const partial = group(argv);
    io.err(partial ? `error: ${partial.name} needs a subcommand: ${partial.next.join(', ')}` : `error: unknown command "${argv[0]}"; see ${CLI} --help`);
    return 2;
  }
  const { command, rest } = found;
  try {
    const { values, positionals } = parseArgs({
      args: rest,
      options: { ...command.options, json: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } },
      allowPositionals: true,
      strict: true,
    });
    if (values.help) {
      io.out(commandHelp(command));
      return 0;
    }
    const [min, max] = command.args ?? [0, 0];
    if (positionals.length < min || positionals.length > max) {
      throw new UsageError(positionals.length < min ? 'missing argument' : `unexpected argument "${positionals[max]}"`);
    }
    const ctx: Ctx = {
      values: values as Ctx['values'],
      positionals,
      json: values.json === true,
      io,
      client: () => {
        const creds = resolveCredentials(io.env);
        if ('missing' in creds) {
          throw new UsageError(`no ${creds.missing.join(' or ')} configured: run ${CLI} configure --api-key ... --signing-secret ... (or --from data/sandbox-credentials.json), or set PARTNER_API_KEY and PARTNER_SIGNING_SECRET`);
        }
        return new PartnerClient(creds);
      },
    };
    const code = await command.run(ctx);
    return typeof code === 'number' ? code : 0;
  } catch (err) {
    // parseArgs reports unknown options and missing values with codes of its own.
    const code = (err as { code?: unknown }).code;
    if (err instanceof UsageError || (typeof code === 'string' && code.startsWith('ERR_PARSE_ARGS'))) {
      io.err(`error: ${(err as Error).message}\nusage: ${usageLine(command)}`);
      return 2;
    }
    io.err(describeError(err));
    return 1;
  }
}
