import type { Queryable } from '../../platform/db/index.ts';

/** The plain-text mails members receive; every link is built from the server's public base URL. */
export interface OutgoingMail {
  to: string;
  subject: string;
  text: string;
}

/**
 * What the members module needs of mail (the app passes integrations/mail's queue): `send` keeps the
 * message with `q`, the transaction of the change that causes it, so the mail leaves exactly when
 * that change commits, and later, whatever the mail server is doing.
 */
export interface MailSender {
  send(q: Queryable, message: OutgoingMail): Promise<void>;
}

export const verificationMail = (to: string, link: string): OutgoingMail => ({
  to,
  subject: 'Verify your email for the Partner Platform',
  text: `Welcome to the Partner Platform.\n\nOpen this link to verify your email address (it works once, for 24 hours):\n${link}\n\nIf you did not sign up, ignore this mail.`,
});

export const resetMail = (to: string, link: string): OutgoingMail => ({
  to,
  subject: 'Reset your Partner Platform password',
  text: `Someone asked to reset the password of this account.\n\nOpen this link to choose a new password (it works once, for 1 hour):\n${link}\n\nIf it was not you, ignore this mail: your password is unchanged.`,
});

export const alreadyRegisteredMail = (to: string, signInLink: string): OutgoingMail => ({
  to,
  subject: 'You already have a Partner Platform account',
  text: `Someone tried to sign up with this address, which already has an account.\n\nSign in here (or reset your password from that page):\n${signInLink}\n\nIf it was not you, ignore this mail.`,
});

export const invitationMail = (
  to: string,
  partnerName: string,
  role: string,
  link: string,
): OutgoingMail => ({
  to,
  subject: `You are invited to ${partnerName} on the Partner Platform`,
  text: `You are invited to join ${partnerName} on the Partner Platform as ${role}.\n\nOpen this link to accept (it works once, for 7 days):\n${link}\n\nIf you do not know ${partnerName}, ignore this mail.`,
});
