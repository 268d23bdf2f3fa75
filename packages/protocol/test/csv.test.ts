import { describe, expect, it } from 'vitest';
import { CsvProblem, csvRecords, ordersFromCsv, parseCsv } from '../src/index.ts';

describe('orders as CSV', () => {
  it('parses RFC 4180: quotes, doubled quotes, embedded newlines, CRLF, BOM, blank lines', () => {
    expect(parseCsv('\uFEFFa,b\r\n"x, y","say ""hi"""\r\n\r\n"multi\nline",\n')).toEqual([
      ['a', 'b'],
      ['x, y', 'say "hi"'],
      ['multi\nline', ''],
    ]);
  });

  it('tells the line each record starts on, across CRLF, blank lines and quoted newlines', () => {
    expect(csvRecords('h\r\n\r\n"a\nb"\nc\rd\n').map((r) => r.line)).toEqual([1, 3, 5, 6]);
  });

  it('turns rows into nested orders.create bodies, leaving empty cells out', () => {
    const [row] = ordersFromCsv(
      'order_reference,customer_name,delivery_lat,delivery_lng,payment_is_paid,payment_amount\nr1,Ama,5.6,-0.18,yes,\n',
    );
    expect(row).toEqual({
      line: 2,
      problems: [],
      order: {
        order_reference: 'r1',
        customer: { name: 'Ama' },
        delivery: { coordinates: { lat: 5.6, lng: -0.18 } },
        payment: { is_paid: true },
      },
    });
  });

  it('lists a row’s own problems and still reads the other rows', () => {
    const rows = ordersFromCsv(
      'order_reference,delivery_lat,payment_is_paid\nr1,north,maybe\nr2,5.6,no\nr3,1,1,extra\n',
    );
    expect(rows[0]!.problems).toEqual([
      'delivery_lat must be a number',
      'payment_is_paid must be true or false',
    ]);
    expect(rows[1]).toEqual({
      line: 3,
      problems: [],
      order: {
        order_reference: 'r2',
        delivery: { coordinates: { lat: 5.6 } },
        payment: { is_paid: false },
      },
    });
    expect(rows[2]!.problems).toEqual(['has 4 cells but the header names 3 columns']);
  });

  it('refuses a file it cannot read as a whole with a CsvProblem', () => {
    expect(() => ordersFromCsv('')).toThrow(CsvProblem);
    expect(() => ordersFromCsv(' \n\n')).toThrow(/empty/);
    expect(() => ordersFromCsv('order_reference,colour\nr1,red\n')).toThrow(
      /unknown CSV column "colour"/,
    );
    expect(() => ordersFromCsv('item,item\nx,y\n')).toThrow(/appears twice/);
    expect(() => ordersFromCsv('item\n"never closed\n')).toThrow(/line 2 is never closed/);
    // Names of Object.prototype are not columns.
    expect(() => ordersFromCsv('constructor\nx\n')).toThrow(/unknown CSV column/);
  });
});
