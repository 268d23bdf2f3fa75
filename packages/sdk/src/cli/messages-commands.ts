import type { MessageSettings, MessageSettingsChange } from '../types.ts';
import { str, UsageError, type Command, type Ctx } from './command.ts';
import { block, json } from './output.ts';

const KINDS = ['assigned', 'courier_near', 'delivered', 'delivery_failed'] as const;
type Kind = (typeof KINDS)[number];

/** `--on delivered,courier_near`: the kinds named, each checked. */
function kindsOf(ctx: Ctx, flag: string): Kind[] {
  const raw = str(ctx, flag);
  if (raw === undefined) return [];
  const kinds = raw.split(',').map((k) => k.trim());
  const unknown = kinds.filter((k) => !(KINDS as readonly string[]).includes(k));
  if (unknown.length)
    throw new UsageError(
      `--${flag}: unknown message ${unknown.join(', ')}; known: ${KINDS.join(', ')}`,
    );
  return kinds as Kind[];
}

function show(ctx: Ctx, res: { data: MessageSettings }): void {
  if (ctx.json) return ctx.io.out(json(res));
  const d = res.data;
  ctx.io.out(
    block([
      ...KINDS.map((k): [string, string] => [k.replace('_', ' '), d.messages[k] ? 'on' : 'off']),
      ['sender name', d.sender_name ?? "(the platform's)"],
      ['language', d.language],
      ['price per SMS segment', `${d.prices.sms_pesewas_per_segment} pesewas`],
      ['price per WhatsApp', `${d.prices.whatsapp_pesewas} pesewas`],
    ]),
  );
}

/** Recipient messages' settings of the key's app. */
export const messagesCommands: Command[] = [
  {
    name: 'messages settings',
    usage: '',
    summary: 'Which texts your recipients receive, the sender name and the language',
    async run(ctx) {
      show(ctx, await ctx.client().delivery.messages.settings.get());
    },
  },
  {
    name: 'messages set',
    usage: '[--on KINDS] [--off KINDS] [--sender NAME | --platform-sender] [--language en|tw|ga]',
    summary: 'Turn texts on or off (comma-separated kinds), set the sender name or the language',
    help: [
      `KINDS: ${KINDS.join(', ')}.`,
      'NAME: 1 to 11 letters, digits or spaces, registered with the platform; --platform-sender uses the platform’s own.',
    ],
    options: {
      on: { type: 'string' },
      off: { type: 'string' },
      sender: { type: 'string' },
      'platform-sender': { type: 'boolean' },
      language: { type: 'string' },
    },
    async run(ctx) {
      const change: MessageSettingsChange = {};
      const on = kindsOf(ctx, 'on');
      const off = kindsOf(ctx, 'off');
      if (on.some((k) => off.includes(k)))
        throw new UsageError('a kind cannot be both --on and --off');
      if (on.length || off.length)
        change.messages = Object.fromEntries([
          ...on.map((k) => [k, true]),
          ...off.map((k) => [k, false]),
        ]);
      const sender = str(ctx, 'sender');
      if (sender !== undefined && ctx.values['platform-sender'])
        throw new UsageError('give --sender or --platform-sender, not both');
      if (sender !== undefined) change.sender_name = sender;
      if (ctx.values['platform-sender']) change.sender_name = null;
      const language = str(ctx, 'language');
      if (language !== undefined) change.language = language as MessageSettingsChange['language'];
      if (Object.keys(change).length === 0)
        throw new UsageError(
          'nothing to change: give --on, --off, --sender, --platform-sender or --language',
        );
      show(ctx, await ctx.client().delivery.messages.settings.update(change));
    },
  },
];
