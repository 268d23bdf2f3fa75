import type { Db } from '../../../platform/db/index.ts';
import { healthOperation } from '../../health/operation.ts';

export const deliveryHealth = (db: Db) => healthOperation('delivery', db);
