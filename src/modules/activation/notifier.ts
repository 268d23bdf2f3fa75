import type { Logger } from '../../platform/logger.ts';
import type { ActivationRow } from './repository.ts';

/**
 * Told after an operator's decision has committed (the app wires it to email later). A failure is
 * logged by the caller and changes nothing: the decision stands.
 */
export interface ActivationNotifier {
  approved(request: ActivationRow): Promise<void>;
  rejected(request: ActivationRow): Promise<void>;
}

/** The default: nobody is told yet; one info line says what would have been sent. */
export class LoggingActivationNotifier implements ActivationNotifier {
  constructor(private readonly log: Logger) {}

  async approved(request: ActivationRow): Promise<void> {
    this.log.info({ request: request.id, partner: request.partner_id }, 'activation approved (no notifier wired)');
  }

  async rejected(request: ActivationRow): Promise<void> {
    this.log.info({ request: request.id, partner: request.partner_id }, 'activation rejected (no notifier wired)');
  }
}
