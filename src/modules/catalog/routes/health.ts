import type { Db } from '../../../platform/db/index.ts';
import { healthOperation } from '../../health/index.ts';

export const catalogHealth = (db: Db) => healthOperation('safe-catalog', db);
