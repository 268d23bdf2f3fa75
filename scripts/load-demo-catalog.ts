/**
 * `npm run demo:catalog`: loads the demo vendors and products (src/playground/catalog-data.ts, which
 * `npm run demo` loads by itself) into the configured database (DATABASE_URL, as for `npm start`),
 * migrating it first. It refuses a catalog that already has vendors. With the embedded database,
 * stop the server first: the data directory is locked by whichever process has it open.
 */
import { loadConfig } from '../src/config.ts';
import { loadDemoCatalog } from '../src/playground/catalog-data.ts';
import { CatalogService } from '../src/modules/catalog/index.ts';
import { openDatabase } from '../src/platform/db/index.ts';

const config = loadConfig();
const db = await openDatabase(config.database);
try {
  const loaded = await loadDemoCatalog(new CatalogService(db, Date.now));
  console.log(`demo catalog loaded: ${loaded.vendors} vendors, ${loaded.products} products`);
} catch (err) {
  console.error(`demo catalog not loaded: ${(err as Error).message}`);
  process.exitCode = 1;
} finally {
  await db.close();
}
