import {
  checkUrl,
  CLI,
  parseJsonInput,
  parseNumber,
  str,
  UsageError,
  type Command,
} from './command.ts';
import { DEFAULT_BASE_URL, maskKey, readConfig, writeConfig, type StoredConfig } from './config.ts';
import { block, ghs, json } from './output.ts';

export const configureCommand: Command = {
  name: 'configure',
  usage:
    '[--from FILE] [--api-key KEY] [--signing-secret SECRET] [--base-url URL] [--catalog-base-url URL] [--webhook-secret WHSEC]',
  summary:
    'Store credentials in your config directory (mode 0600); --from reads data/sandbox-credentials.json',
  help: [
    'Values not given keep what is stored. PARTNER_API_KEY, PARTNER_SIGNING_SECRET, PARTNER_BASE_URL,',
    'PARTNER_CATALOG_BASE_URL and PARTNER_WEBHOOK_SECRET override the stored values at run time.',
    'The directory is PARTNER_CONFIG_DIR, else $XDG_CONFIG_HOME/partner-platform (~/.config/partner-platform),',
    '~/Library/Application Support/partner-platform on macOS, %APPDATA%\\partner-platform on Windows.',
  ],
  options: {
    from: { type: 'string' },
    'api-key': { type: 'string' },
    'signing-secret': { type: 'string' },
    'base-url': { type: 'string' },
    'catalog-base-url': { type: 'string' },
    'webhook-secret': { type: 'string' },
  },
  async run(ctx) {
    const from = str(ctx, 'from');
    const file = from ? (parseJsonInput(from) as StoredConfig & Record<string, unknown>) : {};
    const pick = (flag: string, key: keyof StoredConfig) =>
      str(ctx, flag) ?? (typeof file[key] === 'string' ? file[key] : undefined);
    const stored = readConfig(ctx.io.env);
    const next: StoredConfig = { ...stored };
    const set = (key: keyof StoredConfig, value: string | undefined) =>
      value !== undefined && (next[key] = value);
    set('api_key', pick('api-key', 'api_key'));
    set('signing_secret', pick('signing-secret', 'signing_secret'));
    const baseUrl = pick('base-url', 'base_url');
    set('base_url', baseUrl === undefined ? undefined : checkUrl(baseUrl, '--base-url'));
    const catalogUrl = pick('catalog-base-url', 'catalog_base_url');
    set(
      'catalog_base_url',
      catalogUrl === undefined ? undefined : checkUrl(catalogUrl, '--catalog-base-url'),
    );
    set('webhook_secret', pick('webhook-secret', 'webhook_secret'));
    if (!next.api_key || !next.signing_secret)
      throw new UsageError('give --api-key and --signing-secret (or --from a credentials file)');
    if (next.webhook_secret && !next.webhook_secret.startsWith('whsec_'))
      throw new UsageError('--webhook-secret must start with whsec_');
    next.base_url ??= DEFAULT_BASE_URL;
    const path = writeConfig(next, ctx.io.env);
    const summary = {
      config_file: path,
      api_key: maskKey(next.api_key),
      base_url: next.base_url,
      webhook_secret: next.webhook_secret ? 'stored' : 'none',
    };
    ctx.io.out(
      ctx.json
        ? json(summary)
        : block([
            ['saved to', path],
            ['api key', summary.api_key],
            ['base url', next.base_url],
            ['webhook secret', summary.webhook_secret],
          ]),
    );
  },
};

/** The delivery wallet (production keys). */
export const walletCommands: Command[] = [
  {
    name: 'wallet balance',
    usage: '',
    summary: 'The delivery wallet balance (production keys only)',
    async run(ctx) {
      const res = await ctx.client().delivery.wallet.balance();
      ctx.io.out(ctx.json ? json(res) : block([['balance', ghs(res.data.balance_ghs)]]));
    },
  },
  {
    name: 'wallet topup',
    usage: 'AMOUNT_GHS',
    summary: 'Open a top-up checkout (at least GHS 30); pay at the URL, then run wallet verify REF',
    args: [1, 1],
    async run(ctx) {
      const amount = parseNumber(ctx.positionals[0]!, 'AMOUNT_GHS', { min: 0 });
      const res = await ctx.client().delivery.wallet.topup.initiate(amount);
      if (ctx.json) return ctx.io.out(json(res));
      const t = res.data;
      ctx.io.out(
        block([
          ['checkout url', t.checkout_url],
          ['reference', t.client_reference],
          ['amount', ghs(t.amount_ghs)],
        ]),
      );
      ctx.io.out(`\nPay at the checkout URL, then: ${CLI} wallet verify ${t.client_reference}`);
    },
  },
  {
    name: 'wallet verify',
    usage: 'CLIENT_REFERENCE',
    summary: 'Credit a paid top-up (once); pending means not paid yet',
    args: [1, 1],
    async run(ctx) {
      const res = await ctx.client().delivery.wallet.topup.verify(ctx.positionals[0]!);
      if (ctx.json) return ctx.io.out(json(res));
      const v = res.data;
      ctx.io.out(
        block([
          ['state', v.state],
          ['credited', v.credited ? 'yes' : 'no'],
          ['amount', v.amount_ghs === undefined ? undefined : ghs(v.amount_ghs)],
          ['balance', v.balance_ghs === undefined ? undefined : ghs(v.balance_ghs)],
          ['gateway status', v.verification_status],
        ]),
      );
    },
  },
];
