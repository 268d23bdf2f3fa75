import { relative } from 'node:path';
import type { Config } from './config.ts';

/** The pages a newcomer opens first, by what they are; the development outboxes only when served. */
export function startLinks(config: Config): Record<string, string> {
  const base = config.publicBaseUrl;
  return {
    dashboard: `${base}/`,
    docs: `${base}/docs`,
    console: `${base}/console`,
    ...(!config.mail.smtpUrl && config.mail.devMailPage !== 'off'
      ? { dev_mail: `${base}/dev/mail` }
      : {}),
    ...(!config.sms.hubtel && config.sms.devSmsPage !== 'off'
      ? { dev_sms: `${base}/dev/sms` }
      : {}),
  };
}

/** A path as the person who started the server would type it: relative to where they are, when inside it. */
const shown = (path: string) =>
  relative(process.cwd(), path).startsWith('..') ? path : relative(process.cwd(), path);

/**
 * What a person at a terminal sees once the server is ready: where to go next. Only with human log
 * lines (a terminal, or LOG_FORMAT=pretty); as JSON the ready line carries the same links.
 */
export function startBanner(config: Config, credentials: readonly string[]): string {
  const links = startLinks(config);
  const localOnly = (mode: string) => (mode === 'on' ? '' : '  (from this machine only)');
  const rows: Array<[string, string]> = [
    ['Dashboard', links.dashboard!],
    ['API docs', links.docs!],
    ['Console', `${links.console}  (operators)`],
    ...(links.dev_mail
      ? [['Dev mail', `${links.dev_mail}${localOnly(config.mail.devMailPage)}`] as [string, string]]
      : []),
    ...(links.dev_sms
      ? [['Dev SMS', `${links.dev_sms}${localOnly(config.sms.devSmsPage)}`] as [string, string]]
      : []),
    ...credentials.map((file): [string, string] => [
      'Credentials',
      `${shown(file)}  (readable only by you)`,
    ]),
  ];
  const lines = [
    '',
    `  Partner Platform is ready (${config.database.kind === 'postgres' ? 'PostgreSQL' : 'embedded database'})`,
    '',
    ...rows.map(([k, v]) => `  ${k.padEnd(12)}${v}`),
    '',
  ];
  if (config.demo) lines.push(...playgroundNext(credentials));
  lines.push('  Stop it with Ctrl-C.', '');
  return `${lines.join('\n')}\n`;
}

/** The playground's "what to try next": short, and the README's walkthroughs for the rest. */
function playgroundNext(credentials: readonly string[]): string[] {
  const production = credentials.find((f) => f.endsWith('production-credentials.json'));
  return [
    '  A local playground: production orders pay through the sandbox checkout and the sandbox',
    '  courier delivers them. Nothing here reaches a real courier or real money.',
    '',
    '  Try next, in a second terminal:',
    ...(production ? [`    npx ppctl configure --from ${shown(production)}`] : []),
    '    npx ppctl catalog list',
    '  then README.md: "Your first cod sale" and "Your first wallet-funded order".',
    '',
  ];
}
