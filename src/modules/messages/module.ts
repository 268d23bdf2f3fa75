import type { SmsIntegration } from '../../integrations/sms/index.ts';
import type { WhatsAppSender } from '../../integrations/whatsapp/index.ts';
import type { Db } from '../../platform/db/index.ts';
import type { Logger } from '../../platform/logger.ts';
import { defineModule } from '../../platform/module.ts';
import { registerSmsCallbacks } from './routes/callbacks.ts';
import { messageSettingsOperations } from './routes/messages-settings.ts';
import { MessageSender } from './sender.ts';
import { MessagesService } from './service.ts';
import { DEFAULT_MESSAGE_SETTINGS, type MessageSettings } from './settings.ts';

/** What the flows and the web reach: the service (record, settings, reports) and the sender (send right after a commit). */
export interface MessagesModule {
  service: MessagesService;
  sender: MessageSender;
  settings: MessageSettings;
}

interface Needs {
  db: Db;
  clock: () => number;
  log: Logger;
  publicBaseUrl: string;
  sms: SmsIntegration;
  whatsapp: WhatsAppSender | undefined;
  config: { services: ReadonlySet<string>; messages?: MessageSettings };
}

/** Texts to recipients about their delivery; served with delivery (its operations live under delivery's paths). */
export const messagesModule = defineModule({
  name: 'messages',
  tables: ['message_settings', 'recipient_messages', 'message_opt_outs'],
  needs: [],
  enabled: ({ config }: Needs) => config.services.has('delivery'),
  settings: ({ config }: Needs) => config.messages ?? DEFAULT_MESSAGE_SETTINGS,
  build: ({ db, clock, log, publicBaseUrl, sms, whatsapp }: Needs, settings: MessageSettings) => {
    const service = new MessagesService({
      db,
      clock,
      log,
      settings,
      publicBaseUrl,
      whatsapp: whatsapp !== undefined,
    });
    const sender = new MessageSender(db, sms.sender, whatsapp, clock, log, settings.pollMs);
    const messages: MessagesModule = { service, sender, settings };
    return {
      face: { messages },
      operations: messageSettingsOperations(service, settings),
      pages: (app) => registerSmsCallbacks(app, service, settings.callbackSecret),
      workers: [sender],
    };
  },
});
