import { describe, expect, it } from 'vitest';
import { segmentsOf } from './segments.ts';
import { courierWord, LANGUAGES, MESSAGE_KINDS, messageText } from './texts.ts';

// A long but real tracking link: the public address and a 32-character token.
const URL = `https://deliveries.partner-platform.example/track/${'t'.repeat(32)}`;
const params = { trackingUrl: URL, courier: 'Kwabena-Adjei Mensah', code: '0427' };

describe('recipient texts', () => {
  it.each(LANGUAGES.flatMap((l) => MESSAGE_KINDS.map((k) => [l, k] as const)))(
    '%s %s: GSM-7, at most 2 segments, with the tracking link',
    (language, kind) => {
      const text = messageText(kind, language, params);
      const count = segmentsOf(text);
      expect(count.encoding).toBe('gsm7');
      expect(count.segments).toBeLessThanOrEqual(2);
      expect(text).toContain(URL);
    },
  );

  it('gives the delivery code and the courier at assignment, in the form the courier app reads', () => {
    for (const language of LANGUAGES) {
      const text = messageText('assigned', language, params);
      expect(text).toMatch(/Delivery code: 0427\./);
      expect(text).toContain('Kwabena-Adjei');
      expect(text).not.toContain('Mensah');
    }
  });

  it('names the courier when near, and never carries the code outside the assignment', () => {
    expect(messageText('courier_near', 'en', params)).toMatch(/^Kwabena-Adjei is nearly/);
    for (const kind of ['courier_near', 'delivered', 'delivery_failed'] as const)
      expect(messageText(kind, 'tw', params)).not.toContain('0427');
  });

  it('refuses an assignment text without a 4-digit code', () => {
    expect(() => messageText('assigned', 'en', { trackingUrl: URL })).toThrow();
    expect(() => messageText('assigned', 'en', { trackingUrl: URL, code: '12345' })).toThrow();
  });

  it("keeps a courier's first name to GSM-7 letters, 20 at most, or says the courier", () => {
    expect(courierWord('  Ama  Serwaa ')).toBe('Ama');
    expect(courierWord('Ɔkyeame')).toBe('kyeame');
    expect(courierWord('A'.repeat(40))).toHaveLength(20);
    expect(courierWord('\u0000<script>')).toBe('script');
    expect(courierWord('')).toBe('The courier');
    expect(messageText('courier_near', 'ga', { trackingUrl: URL })).toMatch(/^Courier /);
  });
});
