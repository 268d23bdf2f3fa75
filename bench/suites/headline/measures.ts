/** The six measures of one variant, each a pair (pairs.ts), in the headline's order. */
import { SEED_ROWS, seededId } from '../../baseline/table.ts';
import { type LoadGenerator, type Route, signedRoute } from '../../lib/load.ts';
import type { MeasureProfiler } from '../../lib/measure-profiles.ts';
import { DELIVERY, orderBody, partnerPaidBody, pick } from '../../lib/orders.ts';
import { type BenchPartner, walletBalance, topUpWallet } from '../../lib/partner.ts';
import type { BenchServer } from '../../lib/server.ts';
import { measurePair, rotating, type Side } from './pairs.ts';
import {
  type Drain,
  type MeasureKey,
  MEASURES,
  type PairResult,
  SAFE,
  type Settings,
  SHARED_TOPUP_GHS,
  WALLET_CLIENTS,
} from './spec.ts';

export interface MeasureContext {
  cfg: Settings;
  server: BenchServer;
  baseLoad: LoadGenerator;
  platLoad: LoadGenerator;
  walletLoad: LoadGenerator;
  baseSettle: () => Promise<Drain>;
  settle: () => Promise<Drain>;
  profiler: MeasureProfiler | undefined;
  main: BenchPartner;
  spread: BenchPartner[];
  ids: string[];
}

/** Health, get, create, track, catalog and wallet, one pair each. */
export async function measureAll(
  ctx: MeasureContext,
): Promise<Array<Omit<PairResult, 'target' | 'targetNote' | 'pass'>>> {
  const { cfg, server, baseLoad, platLoad, walletLoad, baseSettle, settle, profiler } = ctx;
  const { main, spread, ids } = ctx;
  const pairs: Array<Omit<PairResult, 'target' | 'targetNote' | 'pass'>> = [];
  const spec = (k: MeasureKey) => MEASURES.find((m) => m.key === k)!;
  const side = (load: LoadGenerator, route: Route, s: () => Promise<Drain>): Side => ({
    load,
    route,
    settle: s,
    profiler: load === baseLoad ? undefined : profiler,
  });
  pairs.push(
    await measurePair(
      spec('health'),
      side(baseLoad, { label: 'GET /noop', path: '/noop', signer: null }, baseSettle),
      side(platLoad, signedRoute('signed health', `${DELIVERY}/health`, main, server.url), settle),
      cfg,
      cfg.connections,
    ),
  );
  pairs.push(
    await measurePair(
      spec('get'),
      side(
        baseLoad,
        {
          label: 'GET /orders/:id',
          path: '/orders/:id',
          signer: null,
          target: () => `/orders/${seededId(Math.floor(Math.random() * SEED_ROWS))}`,
        },
        baseSettle,
      ),
      side(
        platLoad,
        signedRoute('signed orders.get', `${DELIVERY}/orders.get`, main, server.url, () => ({
          order_id: pick(ids),
        })),
        settle,
      ),
      cfg,
      cfg.connections,
    ),
  );
  pairs.push(
    await measurePair(
      spec('create'),
      side(
        baseLoad,
        { label: 'POST /orders', path: '/orders', signer: null, body: () => orderBody() },
        baseSettle,
      ),
      side(
        platLoad,
        signedRoute('signed orders.create', `${DELIVERY}/orders.create`, main, server.url, () =>
          orderBody(),
        ),
        settle,
      ),
      cfg,
      cfg.connections,
    ),
  );
  pairs.push(
    await measurePair(
      spec('track'),
      side(
        baseLoad,
        {
          label: 'GET /orders/:id/track',
          path: '/orders/:id/track',
          signer: null,
          target: () => `/orders/${seededId(Math.floor(Math.random() * SEED_ROWS))}/track`,
        },
        baseSettle,
      ),
      side(
        platLoad,
        signedRoute('signed orders.track', `${DELIVERY}/orders.track`, main, server.url, () => ({
          order_id: pick(ids),
        })),
        settle,
      ),
      cfg,
      cfg.connections,
    ),
  );
  pairs.push(
    await measurePair(
      spec('catalog'),
      side(
        baseLoad,
        { label: 'GET /catalog?limit=50', path: '/catalog?limit=50', signer: null },
        baseSettle,
      ),
      side(
        platLoad,
        signedRoute('signed catalog.list', `${SAFE}/catalog.list?limit=50`, main, server.url),
        settle,
      ),
      cfg,
      cfg.connections,
    ),
  );
  if ((await walletBalance(main)) < SHARED_TOPUP_GHS / 2)
    await topUpWallet(server, main, SHARED_TOPUP_GHS);
  const createPath = `${DELIVERY}/orders.create`;
  pairs.push(
    await measurePair(
      spec('wallet'),
      side(
        walletLoad,
        {
          label: `wallet-funded create on ${WALLET_CLIENTS} wallets`,
          path: createPath,
          signer: rotating(spread),
          body: partnerPaidBody,
        },
        settle,
      ),
      side(
        walletLoad,
        signedRoute(
          'wallet-funded create on 1 wallet',
          createPath,
          main,
          server.url,
          partnerPaidBody,
        ),
        settle,
      ),
      cfg,
      WALLET_CLIENTS,
    ),
  );
  return pairs;
}
