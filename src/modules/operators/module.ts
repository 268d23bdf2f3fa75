import type { Db } from '../../platform/db/index.ts';
import type { Logger } from '../../platform/logger.ts';
import { defineModule } from '../../platform/module.ts';
import type { SecretBox } from '../../platform/secrets.ts';
import { operatorRoutes } from './routes/operators.ts';
import { OperatorsService } from './service.ts';
import { OperatorSignIn } from './sign-in.ts';

/** Operators, their roles and tokens, and their sign-in. */
export const operatorsModule = defineModule({
  name: 'operators',
  tables: ['operators', 'operator_tokens', 'operator_sign_in_failures'],
  needs: [],
  build: ({
    db,
    box,
    clock,
    log,
  }: {
    db: Db;
    box: SecretBox;
    clock: () => number;
    log: Logger;
  }) => {
    const operators = new OperatorsService(db, clock);
    const operatorSignIn = new OperatorSignIn(db, box, clock, log);
    return {
      face: { operators, operatorSignIn },
      adminRoutes: operatorRoutes(operators, operatorSignIn),
    };
  },
});
