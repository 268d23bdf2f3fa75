import type { Db } from '../../platform/db/index.ts';
import type { Logger } from '../../platform/logger.ts';
import { defineModule } from '../../platform/module.ts';
import { testClocksAdvance } from './routes/test-clocks-advance.ts';
import { testClocksCreate } from './routes/test-clocks-create.ts';
import { testClocksDelete } from './routes/test-clocks-delete.ts';
import { testClocksGet } from './routes/test-clocks-get.ts';
import { testClocksList } from './routes/test-clocks-list.ts';
import { TestClocksService } from './service.ts';

interface Needs {
  db: Db;
  clock: () => number;
  log: Logger;
  config: { services: ReadonlySet<string> };
}

/**
 * The sandbox's test clocks, served with the delivery service: their operations (staging keys
 * only) and the face delivery asks a clock's time of when an order is created on one. What runs
 * when a clock advances is registered by `src/flows/` (dispatch's steps).
 */
export const testClocksModule = defineModule({
  name: 'testClocks',
  tables: ['test_clocks'],
  needs: [],
  enabled: ({ config }: Needs) => config.services.has('delivery'),
  build: ({ db, clock, log }: Needs) => {
    const testClocks = new TestClocksService(db, clock, log);
    return {
      face: { testClocks },
      operations: [
        testClocksCreate(testClocks),
        testClocksList(testClocks),
        testClocksGet(testClocks),
        testClocksAdvance(testClocks),
        testClocksDelete(testClocks),
      ],
    };
  },
});
