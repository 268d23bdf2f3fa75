import type { ObjectStorage } from '../../integrations/storage/index.ts';
import type { Db } from '../../platform/db/index.ts';
import type { Logger } from '../../platform/logger.ts';
import { defineModule } from '../../platform/module.ts';
import { deriveKey } from '../../platform/secrets.ts';
import { ConfirmationService } from './confirmations.ts';
import { registerConfirmPage } from './routes/confirm-page.ts';
import { registerMediaRoute } from './routes/media.ts';
import { ProofService } from './service.ts';
import { DEFAULT_PROOF_SETTINGS, type ProofSettings } from './settings.ts';

interface Needs {
  db: Db;
  clock: () => number;
  log: Logger;
  secretsKey: Buffer;
  storage: { storage: ObjectStorage };
  publicBaseUrl: string;
  config: { proof?: ProofSettings };
}

/** Proof of delivery: codes, photos and signatures, the signed links that serve them, and recipients' confirmations. */
export const proofModule = defineModule({
  name: 'proof',
  tables: ['delivery_codes', 'delivery_proofs', 'delivery_confirmations'],
  needs: [],
  build: ({ db, clock, log, secretsKey, storage, publicBaseUrl, config }: Needs) => {
    // Its own key, derived from SECRETS_KEY: the proof module never sees the key that seals secrets.
    const key = deriveKey(secretsKey, 'proof');
    const proofs = new ProofService({
      db,
      storage: storage.storage,
      key,
      publicBaseUrl,
      clock,
      log,
    });
    const proofConfirmations = new ConfirmationService({
      db,
      key: deriveKey(key, 'proof/confirmations'),
      publicBaseUrl,
      settings: config.proof ?? DEFAULT_PROOF_SETTINGS,
      clock,
    });
    return {
      face: { proofs, proofConfirmations },
      pages: (app) => {
        registerMediaRoute(app, proofs);
        registerConfirmPage(app, proofConfirmations, new URL(publicBaseUrl).origin);
      },
    };
  },
});
