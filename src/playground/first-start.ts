import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import {
  ensureSandboxQuickstart,
  PRODUCTION_QUICKSTART_FILE,
  QUICKSTART_FILE,
} from '../modules/accounts/index.ts';
import { loadDemoCatalog } from './catalog-data.ts';

/**
 * What a development server makes on its first start, before it listens: the sandbox quick
 * start's demo partner and staging key and, on the playground (DEMO=on), its production key and
 * the demo catalog (when the catalog is empty). Answers the credential files to show: those written
 * now, or on the playground the ones an earlier start wrote.
 */
export async function firstStart(app: FastifyInstance): Promise<string[]> {
  const { config, db, accounts, catalog } = app.platform;
  if (!config.sandboxQuickstart) return [];
  const written = await ensureSandboxQuickstart(
    db,
    accounts,
    config.dataDir,
    config.publicBaseUrl,
    { production: config.demo },
  );
  if (written.length > 0) {
    const what = config.demo ? 'staging and production keys' : 'a staging key';
    app.log.info(
      { files: written },
      `sandbox quick start: a demo partner with ${what} was created; the credentials are in ${written.join(' and ')}`,
    );
  }
  if (!config.demo) return written;
  if (catalog && (await catalog.catalog.vendorCount()) === 0) {
    const loaded = await loadDemoCatalog(catalog.catalog);
    app.log.info(
      loaded,
      `demo catalog loaded: ${loaded.vendors} vendors, ${loaded.products} products`,
    );
  }
  return [QUICKSTART_FILE, PRODUCTION_QUICKSTART_FILE]
    .map((f) => join(config.dataDir, f))
    .filter((f) => existsSync(f));
}
