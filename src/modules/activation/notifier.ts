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
    this.log.info(
      { request: request.id, partner: request.partner_id },
      'activation approved (no notifier wired)',
    );
  }

  async rejected(request: ActivationRow): Promise<void> {
    this.log.info(
      { request: request.id, partner: request.partner_id },
      'activation rejected (no notifier wired)',
    );
  }
}

/** What the mail notifier needs: the partner's owners' addresses and a way to send plain-text mail. */
export interface ActivationMailDeps {
  ownerEmails(partnerId: string): Promise<string[]>;
  send(message: { to: string; subject: string; text: string }): Promise<void>;
  publicBaseUrl: string;
}

/** Emails the partner's owners the decision (and a rejection's reason), one mail each. */
export class MailActivationNotifier implements ActivationNotifier {
  constructor(private readonly deps: ActivationMailDeps) {}

  async approved(request: ActivationRow): Promise<void> {
    await this.mailOwners(
      request,
      'Production access is active on the Partner Platform',
      `Your production activation request (${request.id}) is approved: production access is on.\n\nCreate production keys from the dashboard:\n${this.deps.publicBaseUrl}/dashboard/activation`,
    );
  }

  async rejected(request: ActivationRow): Promise<void> {
    await this.mailOwners(
      request,
      'Your production activation request needs changes',
      `Your production activation request (${request.id}) was not approved. The reason given:\n\n${request.rejection_reason ?? ''}\n\nCorrect it and submit again from the dashboard:\n${this.deps.publicBaseUrl}/dashboard/activation`,
    );
  }

  private async mailOwners(request: ActivationRow, subject: string, text: string): Promise<void> {
    for (const to of await this.deps.ownerEmails(request.partner_id))
      await this.deps.send({ to, subject, text });
  }
}
