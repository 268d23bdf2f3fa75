import type { Environment } from '../../platform/auth/scopes.ts';
import type { Db } from '../../platform/db/index.ts';
import { errors } from '../../platform/errors.ts';
import type { PaymentGateway } from './gateway.ts';
import { HubtelGateway } from './hubtel.ts';
import { PaystackGateway } from './paystack.ts';
import type { PaymentSettings } from './settings.ts';
import { SandboxGateway } from './sandbox.ts';

/**
 * Which gateway takes which environment's payments. Staging always pays through the built-in
 * sandbox, whose anonymous Pay button must never move real money; production pays through the
 * configured real gateway, or through the sandbox only when a demo deployment says so.
 */
export interface PaymentGateways {
  /** The gateway for a new payment in this environment; 503 PAYMENTS_NOT_CONFIGURED when production has none. */
  forPayment(environment: Environment): PaymentGateway;
  /** The gateway a recorded payment went through, for its status checks. */
  recorded(name: string | null): PaymentGateway;
  readonly all: readonly PaymentGateway[];
  readonly sandbox: SandboxGateway;
  /** One line for the start-up log. */
  readonly summary: string;
}

export function createGateways(
  settings: PaymentSettings,
  publicBaseUrl: string,
  db: Db,
  clock: () => number,
): PaymentGateways {
  const sandbox = new SandboxGateway(
    db,
    publicBaseUrl,
    settings.checkoutExpiryMinutes * 60_000,
    clock,
  );
  const real = realGateway(settings, publicBaseUrl);
  const production = real ?? (settings.sandboxForProduction ? sandbox : undefined);
  const all: PaymentGateway[] = real ? [sandbox, real] : [sandbox];
  const productionSays = real
    ? real.name
    : production
      ? 'sandbox (SANDBOX_PAYMENTS_FOR_PRODUCTION=on: anyone with a checkout link can "pay" production money)'
      : 'none configured (production top-ups and online sales are refused)';
  return {
    forPayment(environment) {
      const gateway = environment === 'staging' ? sandbox : production;
      if (gateway) return gateway;
      throw errors.paymentsNotConfigured(
        'This deployment has no payment gateway for production: nothing was created or charged. The platform operator must configure one (Hubtel or Paystack).',
      );
    },
    recorded(name) {
      const gateway = all.find((g) => g.name === name);
      if (gateway) return gateway;
      throw errors.gateway(
        `The payment went through the ${name ?? 'unknown'} gateway, which this deployment no longer has; nothing was changed.`,
      );
    },
    all,
    sandbox,
    summary: `payments: staging through sandbox; production through ${productionSays}`,
  };
}

function realGateway(settings: PaymentSettings, publicBaseUrl: string): PaymentGateway | undefined {
  if (settings.gateway === 'hubtel' && settings.hubtel) return new HubtelGateway(settings.hubtel);
  if (settings.gateway === 'paystack' && settings.paystack) {
    // Buyers give no email; Paystack requires one, so checkouts name the deployment's own address.
    const customerEmail =
      settings.paystack.customerEmail ?? `payments@${new URL(publicBaseUrl).hostname}`;
    return new PaystackGateway({ ...settings.paystack, customerEmail });
  }
  return undefined;
}
