import type { Db } from '../../platform/db/index.ts';
import { defineModule } from '../../platform/module.ts';
import type { Destinations } from '../../platform/outbound/destinations.ts';
import type { SecretBox } from '../../platform/secrets.ts';
import { KeyDirectory } from './key-directory.ts';
import { appRoutes } from './routes/apps.ts';
import { partnerRoutes } from './routes/partners.ts';
import { AccountsService } from './service.ts';

interface Needs {
  db: Db;
  box: SecretBox;
  clock: () => number;
  destinations: Destinations;
  config: { authCacheTtlMs: number };
}

/** Partners, their apps and API keys; the key directory the signed-request pipeline reads. */
export const accountsModule = defineModule({
  name: 'accounts',
  tables: ['partners', 'apps', 'api_keys'],
  needs: [],
  build: ({ db, box, clock, destinations, config }: Needs) => {
    const keys = new KeyDirectory(db, box, config.authCacheTtlMs, clock);
    // A change that affects authentication drops this instance's cached keys at once.
    const accounts = new AccountsService(db, box, destinations, () => keys.invalidate());
    return {
      face: { accounts, keys },
      adminRoutes: [...partnerRoutes(accounts), ...appRoutes(accounts, clock)],
    };
  },
});
