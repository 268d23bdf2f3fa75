/**
 * The texts a recipient receives, in English, Twi (tw) and Ga (ga). The Twi and Ga vowels ɛ and ɔ
 * (and Ga's ŋ) are written e, o and n, as Ghanaians commonly do in text messages: they are outside
 * the GSM-7 alphabet, and one of them would make every message UCS-2 (70 characters a segment
 * instead of 160), roughly doubling its cost. The translations are short and plain; a native
 * speaker should review them before they go to production recipients (docs/operations.md).
 */
export const MESSAGE_KINDS = ['assigned', 'courier_near', 'delivered', 'delivery_failed'] as const;
export type MessageKind = (typeof MESSAGE_KINDS)[number];

export const LANGUAGES = ['en', 'tw', 'ga'] as const;
export type Language = (typeof LANGUAGES)[number];

export interface TextParams {
  trackingUrl: string;
  /** The courier's first name (assigned, courier_near). */
  courier?: string | undefined;
  /** The delivery code (assigned only). */
  code?: string | undefined;
}

type Render = (p: { url: string; courier: string; code: string }) => string;

const TEXTS: Record<Language, Record<MessageKind, Render>> = {
  en: {
    assigned: ({ url, courier, code }) =>
      `Your parcel is on its way with ${courier}. Delivery code: ${code}. Give it to the courier only when you receive the parcel.\nTrack it: ${url}`,
    courier_near: ({ url, courier }) =>
      `${courier} is nearly at your door with your parcel. Have your delivery code ready.\nTrack it: ${url}`,
    delivered: ({ url }) => `Your parcel has been delivered. Thank you!\nDetails: ${url}`,
    delivery_failed: ({ url }) =>
      `We could not deliver your parcel today. We will contact you to try again.\nDetails: ${url}`,
  },
  tw: {
    assigned: ({ url, courier, code }) =>
      `Wo nneema no reba, ${courier} na ode reba. Delivery code: ${code}. Fa ma courier no bere a wonya wo nneema no nko ara.\nHwe: ${url}`,
    courier_near: ({ url, courier }) =>
      `${courier} abeben wo fie ne wo nneema no. Ma wo delivery code no nka wo nsam.\nHwe: ${url}`,
    delivered: ({ url }) => `Yede wo nneema no abre wo. Meda wo ase!\nHwe: ${url}`,
    delivery_failed: ({ url }) =>
      `Yentumi mfaa wo nneema no mmraa nne. Yebefre wo na yeasan aba bio.\nHwe: ${url}`,
  },
  ga: {
    assigned: ({ url, courier, code }) =>
      `Onibii le miiba, ${courier} kee ba. Delivery code: ${code}. Ha courier le code le beni ona onibii le pe.\nKwe: ${url}`,
    courier_near: ({ url, courier }) =>
      `${courier} ebaabenke oshia ke onibii le. Hoo o-delivery code le.\nKwe: ${url}`,
    delivered: ({ url }) => `Wo ke onibii le eba oshia. Oyiwaladonn!\nKwe: ${url}`,
    delivery_failed: ({ url }) =>
      `Wo nyeee wo ke onibii le ba nene. Wo baatse bo ni wo ba ekoo.\nKwe: ${url}`,
  },
};

/** The longest courier name a text carries: a first name, no more. */
export const MAX_COURIER_NAME = 20;

/** A courier's first name as a text may carry it: letters only (GSM-7 ones), at most 20; "The courier" else. */
export function courierWord(name: string | undefined): string {
  const first = (name ?? '').trim().split(/\s+/)[0] ?? '';
  const clean = first.replace(/[^A-Za-z'-]/g, '').slice(0, MAX_COURIER_NAME);
  return clean || 'The courier';
}

const CODE = /^\d{4}$/;

/** The text of one message. Throws for an assignment without a 4-digit code (a programming error). */
export function messageText(kind: MessageKind, language: Language, params: TextParams): string {
  if (kind === 'assigned' && !CODE.test(params.code ?? ''))
    throw new Error('an assignment text needs the 4-digit delivery code');
  const courier = courierWord(params.courier);
  return TEXTS[language][kind]({
    url: params.trackingUrl,
    courier: courier === 'The courier' && language !== 'en' ? 'Courier' : courier,
    code: params.code ?? '',
  });
}
