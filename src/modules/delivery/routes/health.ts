import type { Db } from '../../../platform/db/index.ts';
import { healthOperation } from '../../health/index.ts';

export const deliveryHealth = (db: Db) => healthOperation('delivery', db);
