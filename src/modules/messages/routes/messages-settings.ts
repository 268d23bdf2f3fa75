import { Type } from '@sinclair/typebox';
import { defineOperation } from '../../../platform/http/operation.ts';
import { DeliverySuccess } from '../../../platform/http/openapi-shapes.ts';
import { StringEnum } from '../../../platform/http/schemas.ts';
import { SENDER_NAME_RULE, type Preferences } from '../domain/preferences.ts';
import { LANGUAGES } from '../domain/texts.ts';
import type { MessagesService } from '../service.ts';
import type { MessageSettings } from '../settings.ts';

const KIND_DESCRIPTIONS = {
  assigned:
    'A courier took the job: the delivery code, the tracking link and the courier’s first name (also by WhatsApp where the platform has it)',
  courier_near:
    'The courier is within 500 m of the drop-off or 4 minutes from it, after the pickup; once per order',
  delivered: 'The parcel was delivered',
  delivery_failed: 'A delivery attempt failed (one per attempt), or the order failed',
} as const;

// An update names at least one thing to change: an empty one would be a write that changes nothing.
const Kinds = (optional: boolean) =>
  Type.Object(
    Object.fromEntries(
      Object.entries(KIND_DESCRIPTIONS).map(([kind, description]) => {
        const flag = Type.Boolean({ description });
        return [kind, optional ? Type.Optional(flag) : flag];
      }),
    ) as Record<keyof typeof KIND_DESCRIPTIONS, ReturnType<typeof Type.Boolean>>,
    { additionalProperties: false, ...(optional ? { minProperties: 1 } : {}) },
  );

const LANGUAGE_NOTE = 'en (English), tw (Twi) or ga (Ga)';

const SettingsData = Type.Object({
  messages: Kinds(false),
  sender_name: Type.Union([Type.String(), Type.Null()], {
    description: 'The SMS sender id recipients see; null: the platform’s own',
  }),
  language: StringEnum(LANGUAGES, LANGUAGE_NOTE),
  prices: Type.Object({
    sms_pesewas_per_segment: Type.Integer({
      description:
        'Charged to your wallet per SMS segment (160 characters, 153 each when longer); 0: free',
    }),
    whatsapp_pesewas: Type.Integer({ description: 'Charged per WhatsApp message' }),
  }),
});

const DESCRIPTION = `Texts to your production orders’ recipients (staging orders never message anyone and are never charged). Each message sent is charged to your wallet (journal \`recipient_message\` on your statement, given back as \`recipient_message_refund\` if it could not be sent after its retries); a recipient who texted STOP is not messaged again (the message is recorded as skipped, free) until they text START. Without settings an app sends only the assignment’s delivery code, in English, from the platform’s sender id.`;

const EXAMPLE_DATA = {
  messages: { assigned: true, courier_near: true, delivered: true, delivery_failed: false },
  sender_name: 'KenteShop',
  language: 'tw',
  prices: { sms_pesewas_per_segment: 4, whatsapp_pesewas: 8 },
};

export function settingsView(p: Preferences, prices: MessageSettings) {
  return {
    messages: { ...p.kinds },
    sender_name: p.senderName,
    language: p.language,
    prices: {
      sms_pesewas_per_segment: prices.smsPesewasPerSegment,
      whatsapp_pesewas: prices.whatsappPesewas,
    },
  };
}

export const messageSettingsOperations = (messages: MessagesService, prices: MessageSettings) => [
  defineOperation({
    id: 'delivery.messages.settings.get',
    service: 'delivery',
    method: 'GET',
    path: '/api/v1/delivery/messages.settings.get',
    summary: 'Which texts your app’s recipients receive, from which sender name, in which language',
    scope: 'delivery:read',
    access: 'read',
    description: DESCRIPTION,
    response: DeliverySuccess(SettingsData),
    examples: [
      {
        name: 'settings',
        summary: 'An app texting in Twi under its own sender id',
        response: { status: 'success', message: 'Message settings', data: EXAMPLE_DATA },
      },
    ],
    handler: async ({ auth }) => ({
      body: {
        status: 'success',
        message: 'Message settings',
        data: settingsView(await messages.preferences(auth.appId), prices),
      },
    }),
  }),
  defineOperation({
    id: 'delivery.messages.settings.update',
    service: 'delivery',
    method: 'POST',
    path: '/api/v1/delivery/messages.settings.update',
    summary: 'Choose which texts your recipients receive, the sender name and the language',
    scope: 'delivery:write',
    access: 'write',
    body: Type.Object(
      {
        messages: Type.Optional(Kinds(true)),
        sender_name: Type.Optional(
          Type.Union([Type.String({ maxLength: 64, description: SENDER_NAME_RULE }), Type.Null()], {
            description: `The SMS sender id (${SENDER_NAME_RULE}), registered with the platform’s SMS provider; null: the platform’s own`,
          }),
        ),
        language: Type.Optional(StringEnum(LANGUAGES, LANGUAGE_NOTE)),
      },
      { additionalProperties: false, minProperties: 1 },
    ),
    errorCodes: ['INVALID_SENDER_NAME'],
    description: `${DESCRIPTION} Fields left out keep their value; an update naming nothing is refused. A sender name that is no SMS sender id answers 400 \`INVALID_SENDER_NAME\` and changes nothing.`,
    response: DeliverySuccess(SettingsData),
    examples: [
      {
        name: 'twi',
        summary: 'Every text but the failure, in Twi, under the app’s sender id',
        request: {
          messages: { courier_near: true, delivered: true },
          sender_name: 'KenteShop',
          language: 'tw',
        },
        response: { status: 'success', message: 'Message settings saved', data: EXAMPLE_DATA },
      },
    ],
    handler: async ({ auth, body }) => ({
      body: {
        status: 'success',
        message: 'Message settings saved',
        data: settingsView(
          await messages.setPreferences(auth.appId, {
            kinds: body.messages,
            senderName: body.sender_name,
            language: body.language,
          }),
          prices,
        ),
      },
    }),
  }),
];
