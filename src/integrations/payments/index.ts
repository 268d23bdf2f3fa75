import type { Config } from '../../config.ts';
import type { Db } from '../../platform/db/index.ts';
import type { PaymentGateway } from './gateway.ts';
import { HubtelGateway } from './hubtel.ts';
import { SandboxGateway } from './sandbox.ts';

/**
 * The configured gateway: Hubtel when configured, else the built-in sandbox. The sandbox's hosted
 * page is served only when it is the gateway in use.
 */
export function createGateway(config: Config, db: Db, clock: () => number): { gateway: PaymentGateway; sandbox: SandboxGateway | undefined } {
  if (config.payments.gateway === 'hubtel' && config.payments.hubtel) {
    return { gateway: new HubtelGateway(config.payments.hubtel), sandbox: undefined };
  }
  const sandbox = new SandboxGateway(db, config.publicBaseUrl, config.payments.checkoutExpiryMinutes * 60_000, clock);
  return { gateway: sandbox, sandbox };
}
