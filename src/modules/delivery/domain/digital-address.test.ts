import { describe, expect, it } from 'vitest';
import { digitalAddressArea, parseDigitalAddress } from './digital-address.ts';

describe('parseDigitalAddress', () => {
  it('reads the region and district letters and labels them from our table', () => {
    expect(parseDigitalAddress('GA-183-8164')).toEqual({
      value: 'GA-183-8164',
      prefix: 'GA',
      region: 'Greater Accra',
      zone: 'Accra Metro',
    });
    expect(parseDigitalAddress('AK-0392-1234')).toMatchObject({
      region: 'Ashanti',
      zone: 'Kumasi Metro',
    });
  });

  it('upper-cases the letters, and nothing else is forgiven', () => {
    expect(parseDigitalAddress('ga-183-8164')?.value).toBe('GA-183-8164');
    expect(parseDigitalAddress('gT-0012-0001')?.value).toBe('GT-0012-0001');
  });

  it('keeps a district our table does not know, labelled with its region only', () => {
    const d = parseDigitalAddress('CC-123-4567')!;
    expect(d).toMatchObject({ region: 'Central', zone: null });
    expect(digitalAddressArea(d)).toBe('Central');
    expect(digitalAddressArea(parseDigitalAddress('GA-183-8164')!)).toBe(
      'Accra Metro, Greater Accra',
    );
  });

  it.each([
    '',
    'GA1838164',
    'GA 183 8164',
    ' GA-183-8164',
    'GA-183-8164 ',
    'GA-18-8164',
    'GA-18345-8164',
    'GA-183-816',
    'GA-183-81645',
    'G-183-8164',
    'GAA-183-8164',
    'QA-183-8164',
    'ZA-183-8164',
    'G1-183-8164',
    'GA–183–8164',
    'GA-１８３-8164',
    'GA-183-8164\n',
    'GA-183\u0000-8164',
    'GA_183_8164',
    'GA-183-8164-1',
    'X'.repeat(100_000),
  ])('refuses %j', (raw) => {
    expect(parseDigitalAddress(raw)).toBeNull();
  });

  it('knows the ten region letters', () => {
    const regions = [...'ABCEGNUVWX'].map((l) => parseDigitalAddress(`${l}A-100-0000`)?.region);
    expect(regions).toEqual([
      'Ashanti',
      'Bono',
      'Central',
      'Eastern',
      'Greater Accra',
      'Northern',
      'Upper East',
      'Volta',
      'Western',
      'Upper West',
    ]);
  });
});
