/** Partners for the delivery and wallet suites: operator API set-up, one-off signed calls, sandbox top-ups. */
import { performance } from 'node:perf_hooks';
import { PartnerClient } from '../../packages/sdk/src/index.ts';
import { admin, BENCH_RATE_LIMIT, type BenchKey, type BenchServer } from './server.ts';

export const WALLET_SCOPES = [
  'delivery:read',
  'delivery:write',
  'delivery:wallet:topup',
  'delivery:wallet:spend',
];

export interface BenchPartner extends BenchKey {
  appId: string;
  /** Further apps of the same partner (no keys), e.g. to spread bulk-loaded orders. */
  otherAppIds: string[];
  client: PartnerClient;
}

export interface PartnerOptions {
  environment: 'staging' | 'production';
  scopes: string[];
  otherApps?: number;
  creditLimitGhs?: number;
}

/**
 * A partner with rate limits at the operator API's maximum (1,000,000/min: counted, never
 * refused), production access when a production key is asked for, one app and its key.
 */
export async function createPartner(
  server: BenchServer,
  opts: PartnerOptions,
): Promise<BenchPartner> {
  const partner = await admin<{ partner_id: string }>(server, 'POST', '/partners', {
    name: 'Bench Partner',
  });
  await admin(server, 'PATCH', `/partners/${partner.partner_id}`, {
    rate_limits: { reads_per_minute: BENCH_RATE_LIMIT, writes_per_minute: BENCH_RATE_LIMIT },
    ...(opts.environment === 'production' ? { production_active: true } : {}),
    ...(opts.creditLimitGhs !== undefined ? { credit_limit_ghs: opts.creditLimitGhs } : {}),
  });
  const newApp = async (name: string) =>
    (
      await admin<{ app_id: string }>(server, 'POST', `/partners/${partner.partner_id}/apps`, {
        name,
      })
    ).app_id;
  const appId = await newApp('Bench App');
  const otherAppIds: string[] = [];
  for (let i = 0; i < (opts.otherApps ?? 0); i++)
    otherAppIds.push(await newApp(`Bench App ${i + 2}`));
  const key = await admin<{ key_id: string; api_key: string; signing_secret: string }>(
    server,
    'POST',
    `/apps/${appId}/keys`,
    { environment: opts.environment, scopes: opts.scopes },
  );
  return {
    partnerId: partner.partner_id,
    appId,
    otherAppIds,
    keyId: key.key_id,
    apiKey: key.api_key,
    signingSecret: key.signing_secret,
    client: new PartnerClient({
      apiKey: key.api_key,
      signingSecret: key.signing_secret,
      baseUrl: server.url,
      timeoutMs: 60_000,
    }),
  };
}

/** One signed call that must answer 2xx; answers its body and how long it took (ms). */
export async function call<T = any>(
  p: BenchPartner,
  method: 'GET' | 'POST',
  path: string,
  body?: unknown,
): Promise<{ body: T; ms: number }> {
  const t0 = performance.now();
  const res = await p.client.send<T>(method, path, body === undefined ? {} : { body });
  const ms = performance.now() - t0;
  if (res.status < 200 || res.status >= 300)
    throw new Error(
      `${method} ${path} answered ${res.status}: ${JSON.stringify(res.body).slice(0, 400)}`,
    );
  return { body: res.body, ms };
}

/**
 * Tops the wallet up the way a partner does with the sandbox gateway: initiate, the buyer's Pay
 * click on the hosted checkout (its JSON form), then verify. Answers the balance after it.
 */
export async function topUpWallet(
  server: BenchServer,
  p: BenchPartner,
  amountGhs: number,
): Promise<number> {
  const init = await call<{ data: { checkout_url: string; client_reference: string } }>(
    p,
    'POST',
    '/api/v1/delivery/wallet.topup.initiate',
    { amount_ghs: amountGhs },
  );
  // The checkout URL carries PUBLIC_BASE_URL (localhost); the bench talks to 127.0.0.1.
  const checkout = new URL(init.body.data.checkout_url);
  const pay = await fetch(`${server.url}${checkout.pathname}/pay`, {
    method: 'POST',
    headers: { accept: 'application/json' },
  });
  if (pay.status !== 200)
    throw new Error(`sandbox checkout pay answered ${pay.status}: ${await pay.text()}`);
  const verify = await call<{ data: { credited: boolean; state: string; balance_ghs?: number } }>(
    p,
    'POST',
    '/api/v1/delivery/wallet.topup.verify',
    {
      client_reference: init.body.data.client_reference,
    },
  );
  if (!verify.body.data.credited)
    throw new Error(`top-up not credited after paying: ${JSON.stringify(verify.body.data)}`);
  return walletBalance(p);
}

export async function walletBalance(p: BenchPartner): Promise<number> {
  return (
    await call<{ data: { balance_ghs: number } }>(p, 'GET', '/api/v1/delivery/wallet.balance')
  ).body.data.balance_ghs;
}
