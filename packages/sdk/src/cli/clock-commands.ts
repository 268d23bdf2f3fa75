import type { TestClock } from '../types.ts';
import { parseNumber, str, UsageError, type Command, type Ctx } from './command.ts';
import { block, json, table } from './output.ts';

const clockText = (c: TestClock) =>
  block([
    ['clock id', c.id],
    ['name', c.name || undefined],
    ['time', c.frozen_time],
    ['status', c.status],
  ]);

const required = (ctx: Ctx, name: string, what: string): string => {
  const v = str(ctx, name);
  if (!v) throw new UsageError(`--${name} ${what} is required`);
  return v;
};

/** A command on one clock named by its id: the answer as JSON, or its text. */
const byId = (
  name: string,
  summary: string,
  act: (ctx: Ctx, id: string) => Promise<[unknown, string]>,
): Command => ({
  name,
  usage: 'CLOCK_ID',
  summary,
  args: [1, 1],
  async run(ctx) {
    const [res, text] = await act(ctx, ctx.positionals[0]!);
    ctx.io.out(ctx.json ? json(res) : text);
  },
});

/** Sandbox test clocks (staging keys only): orders created with --clock live in the clock's time. */
export const clockCommands: Command[] = [
  {
    name: 'clocks create',
    usage: '--at DATE-TIME [--name TEXT]',
    summary:
      'Create a sandbox test clock frozen at --at (e.g. 2026-12-04T17:00:00Z); give its id to estimate and orders create with --clock (staging keys only)',
    options: { at: { type: 'string' }, name: { type: 'string' } },
    async run(ctx) {
      const at = required(ctx, 'at', 'DATE-TIME');
      const res = await ctx.client().delivery.testClocks.create(at, str(ctx, 'name'));
      ctx.io.out(ctx.json ? json(res) : clockText(res.data));
    },
  },
  {
    name: 'clocks list',
    usage: '[--limit N]',
    summary: "The app's test clocks, newest first",
    options: { limit: { type: 'string' } },
    async run(ctx) {
      const limit = str(ctx, 'limit');
      const res = await ctx
        .client()
        .delivery.testClocks.list(
          limit === undefined
            ? undefined
            : parseNumber(limit, '--limit', { integer: true, min: 1 }),
        );
      if (ctx.json) return ctx.io.out(json(res));
      ctx.io.out(
        table(
          ['id', 'name', 'time', 'status'],
          res.data.test_clocks.map((c) => [c.id, c.name, c.frozen_time, c.status]),
        ),
      );
    },
  },
  byId('clocks get', "A test clock's time and status", async (ctx, id) => {
    const res = await ctx.client().delivery.testClocks.get(id);
    return [res, clockText(res.data)];
  }),
  {
    name: 'clocks advance',
    usage: 'CLOCK_ID --to DATE-TIME',
    summary:
      "Move a test clock forward (at most 60 days at a time): its orders' offers, moves and windows run in order, their webhook events carrying the clock's time",
    options: { to: { type: 'string' } },
    args: [1, 1],
    async run(ctx) {
      const to = required(ctx, 'to', 'DATE-TIME');
      const res = await ctx.client().delivery.testClocks.advance(ctx.positionals[0]!, to);
      ctx.io.out(ctx.json ? json(res) : clockText(res.data));
    },
  },
  byId(
    'clocks delete',
    'Delete a test clock (its orders stay where it left them)',
    async (ctx, id) => {
      const res = await ctx.client().delivery.testClocks.delete(id);
      return [res, block([['deleted', res.data.id]])];
    },
  ),
];
