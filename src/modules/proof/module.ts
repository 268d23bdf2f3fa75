import type { ObjectStorage } from '../../integrations/storage/index.ts';
import type { Db } from '../../platform/db/index.ts';
import type { Logger } from '../../platform/logger.ts';
import { defineModule } from '../../platform/module.ts';
import { deriveKey } from '../../platform/secrets.ts';
import { registerMediaRoute } from './routes/media.ts';
import { ProofService } from './service.ts';

interface Needs {
  db: Db;
  clock: () => number;
  log: Logger;
  secretsKey: Buffer;
  storage: { storage: ObjectStorage };
  publicBaseUrl: string;
}

/** Proof of delivery: codes, photos and signatures, and the signed links that serve them. */
export const proofModule = defineModule({
  name: 'proof',
  tables: ['delivery_codes', 'delivery_proofs'],
  needs: [],
  build: ({ db, clock, log, secretsKey, storage, publicBaseUrl }: Needs) => {
    // Its own key, derived from SECRETS_KEY: the proof module never sees the key that seals secrets.
    const proofs = new ProofService({
      db,
      storage: storage.storage,
      key: deriveKey(secretsKey, 'proof'),
      publicBaseUrl,
      clock,
      log,
    });
    return { face: { proofs }, pages: (app) => registerMediaRoute(app, proofs) };
  },
});
