import { describe, expect, it } from 'vitest';
import { cleanCourierInput, positionProblem } from './courier.ts';

describe('cleanCourierInput', () => {
  it('normalises a valid profile', () => {
    const { value, problems } = cleanCourierInput({
      name: '  Kwame   Mensah ',
      phone: '024 123 4567',
      vehicle: 'motorbike',
      zones: ['Accra-Central', 'accra-central', ' tema '],
    });
    expect(problems).toEqual([]);
    expect(value).toEqual({
      name: 'Kwame Mensah',
      phone: '+233241234567',
      vehicle: 'motorbike',
      zones: ['accra-central', 'tema'],
    });
  });

  it('lists every problem and keeps nothing invalid', () => {
    const { value, problems } = cleanCourierInput({
      name: 'A\u0000B',
      phone: '12345',
      vehicle: 'bicycle',
      zones: ['ok', 'not ok'],
    });
    expect(problems.map((p) => p.field)).toEqual(['name', 'phone', 'vehicle', 'zones']);
    expect(value).toEqual({});
  });

  it('refuses control characters, empty names and too many zones', () => {
    expect(cleanCourierInput({ name: 'Ama\nSerwaa' }).problems).toHaveLength(1);
    expect(cleanCourierInput({ name: '   ' }).problems).toHaveLength(1);
    expect(
      cleanCourierInput({ zones: Array.from({ length: 21 }, (_, i) => `z${i}`) }).problems,
    ).toHaveLength(1);
  });

  it('accepts names in other scripts and with apostrophes', () => {
    expect(cleanCourierInput({ name: "Efua O'Neil-Ɔwusu" }).problems).toEqual([]);
  });
});

describe('positionProblem', () => {
  it('accepts a point in Accra and refuses one outside Ghana or not a number', () => {
    expect(positionProblem(5.6037, -0.187)).toBeUndefined();
    expect(positionProblem(51.5, -0.12)).toBeDefined();
    expect(positionProblem(Number.NaN, 0)).toBeDefined();
    expect(positionProblem('5.6', '-0.18')).toBeDefined();
  });
});
