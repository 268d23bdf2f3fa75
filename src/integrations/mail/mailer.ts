/** One plain-text message to one person. */
export interface MailMessage {
  to: string;
  subject: string;
  text: string;
}

/** Sends mail; resolves once the message is handed over (or kept, in development). */
export interface Mailer {
  send(message: MailMessage): Promise<void>;
  /** One line for the startup log: where mail goes. */
  readonly summary: string;
}
