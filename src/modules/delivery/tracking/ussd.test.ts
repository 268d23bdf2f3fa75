import { describe, expect, it } from 'vitest';
import { deliverySettings } from '../settings.ts';
import { codeForm, statusScreen, USSD_SCREEN_LIMIT } from './ussd.ts';

const order = (over: Partial<Parameters<typeof statusScreen>[0]> = {}) => ({
  id: 'ord_1',
  order_reference: 'ORD-1001',
  status: 'in_transit' as const,
  estimated_delivery: new Date('2026-11-29T14:30:00Z'),
  ...over,
});
const ETA = 'Expected around Sun 29 Nov, 14:30 (Accra time).';

describe('USSD status screen', () => {
  it('says the state, the expected time and the courier when they fit', () => {
    const screen = statusScreen(order(), { first_name: 'Kofi', vehicle: 'motorbike' }, ETA);
    expect(screen).toBe(
      `END Order ORD-1001: The package is on its way to the recipient. ${ETA} Courier: Kofi, on a motorbike.`,
    );
  });

  it('drops the courier, then the time, to stay within one screen of plain GSM-7 text', () => {
    const longest = order({ status: 'returning', order_reference: 'R'.repeat(100) });
    const courier = { first_name: 'Nana Akua Afúa Ɛsi {x}', vehicle: 'motorbike' };
    const screen = statusScreen(longest, courier, ETA);
    expect(screen.length).toBeLessThanOrEqual(USSD_SCREEN_LIMIT);
    expect(screen).toContain(ETA);
    expect(screen).not.toContain('Courier');
    expect(screen).toContain(`Order ${'R'.repeat(20)}:`);
    const named = statusScreen(order(), courier, ETA);
    expect(named).toMatch(/^[\x20-\x7e]+$/);
    expect(named).toContain('Courier: Nana Akua Afua si x, on a motorbike.');
  });

  it('compares codes in upper case, letters and digits only', () => {
    expect(codeForm(' ord-10.01 ')).toBe('ORD1001');
    expect(codeForm('#*-')).toBe('');
  });
});

describe('USSD_CALLBACK_SECRET', () => {
  it('is off when unset and must be 24 or more URL-safe characters when set', () => {
    const problems: string[] = [];
    expect(deliverySettings({}, problems).ussdCallbackSecret).toBeUndefined();
    const ok = 'a'.repeat(24);
    expect(deliverySettings({ USSD_CALLBACK_SECRET: ok }, problems).ussdCallbackSecret).toBe(ok);
    expect(problems).toEqual([]);
    for (const bad of ['short', `${'a'.repeat(30)}/x`])
      expect(
        deliverySettings({ USSD_CALLBACK_SECRET: bad }, problems).ussdCallbackSecret,
      ).toBeUndefined();
    expect(problems).toHaveLength(2);
  });
});
