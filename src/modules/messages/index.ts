/** Recipient messages' public face: the module, the service the flows record through, the texts' kinds and languages. */
export { messagesModule, type MessagesModule } from './module.ts';
export { MESSAGES_CHANNEL, MessagesService, type MessageOrder, type Trigger } from './service.ts';
export { MESSAGE_LEASE_MS, MessageSender } from './sender.ts';
export { MESSAGE_CHANGES_CHANNEL, type MessageRow as RecipientMessage } from './repository.ts';
export { MESSAGE_KINDS, LANGUAGES, type Language, type MessageKind } from './domain/texts.ts';
export { isNear } from './domain/near.ts';
export { isSenderName, SENDER_NAME_RULE } from './domain/preferences.ts';
export { messageSettings, type MessageSettings } from './settings.ts';
