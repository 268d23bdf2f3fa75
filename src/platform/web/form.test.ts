import { describe, expect, it } from 'vitest';
import { crossSiteProblem, tokensMatch } from './csrf.ts';
import { FormProblem, parseForm } from './form.ts';

const FORM = 'application/x-www-form-urlencoded';
const rules = { email: { max: 20, label: 'Email' }, note: { max: 50, multiline: true } };
const body = (s: string) => Buffer.from(s);

describe('parseForm', () => {
  it('reads declared fields, missing ones empty, others ignored', () => {
    expect(parseForm(body('email=a%40b.gh&x=1'), FORM, rules)).toEqual({
      email: 'a@b.gh',
      note: '',
    });
    expect(parseForm(body('note=a%0Ab'), `${FORM}; charset=UTF-8`, rules).note).toBe('a\nb');
  });

  it.each([
    ['a JSON body', '{"email":"x"}', 'application/json', 415],
    ['no content type', 'email=x', undefined, 415],
    ['a NUL byte', 'email=a%00b', FORM, 400],
    ['a line break in a one-line field', 'email=a%0Ab', FORM, 400],
    ['a C1 control', 'note=%C2%85', FORM, 400],
    ['an over-long value', `email=${'a'.repeat(21)}`, FORM, 400],
    ['a repeated field', 'email=a&email=b', FORM, 400],
    ['invalid UTF-8', 'email=%FF', FORM, 400],
  ])('refuses %s with a sentence', (_name, text, type, status) => {
    let thrown: unknown;
    try {
      // %FF decodes to U+FFFD by URLSearchParams; raw invalid bytes are what the decoder refuses.
      parseForm(text === 'email=%FF' ? Buffer.from([0x65, 0x3d, 0xff]) : body(text), type, rules);
    } catch (err) {
      thrown = err;
    }
    expect(thrown).toBeInstanceOf(FormProblem);
    expect((thrown as FormProblem).statusCode).toBe(status);
  });
});

describe('parseForm: declared repeated fields', () => {
  const listRules = {
    event: { max: 30, label: 'Event', repeated: { maxCount: 3 } },
    note: { max: 10 },
  };

  it('answers a repeated field as a list (empty when not sent), other fields as strings', () => {
    const f = parseForm(body('event=evt_1&note=hi&event=evt_2'), FORM, listRules);
    expect(f).toEqual({ event: ['evt_1', 'evt_2'], note: 'hi' });
    expect(parseForm(body('note=x'), FORM, listRules).event).toEqual([]);
  });

  it.each([
    ['more values than declared', 'event=a&event=b&event=c&event=d', /sent 4 times; at most 3/],
    ['a value too long', `event=a&event=${'b'.repeat(31)}`, /too long/],
    ['a NUL byte in one value', 'event=a&event=b%00', /not allowed/],
    ['a field not declared repeated sent twice', 'event=a&note=x&note=y', /more than once/],
  ])('refuses %s', (_name, text, message) => {
    expect(() => parseForm(body(text), FORM, listRules)).toThrow(message);
  });
});

describe('CSRF checks', () => {
  it('compares tokens exactly', () => {
    expect(tokensMatch('abc', 'abc')).toBe(true);
    expect(tokensMatch('abd', 'abc')).toBe(false);
    expect(tokensMatch('', 'abc')).toBe(false);
    expect(tokensMatch(undefined, 'abc')).toBe(false);
  });

  it('refuses other sites by Sec-Fetch-Site or Origin', () => {
    const me = 'https://partners.example.gh';
    expect(crossSiteProblem({ origin: me, 'sec-fetch-site': 'same-origin' }, me)).toBeUndefined();
    expect(crossSiteProblem({}, me)).toBeUndefined();
    expect(crossSiteProblem({ 'sec-fetch-site': 'cross-site' }, me)).toMatch(/cross-site/);
    expect(crossSiteProblem({ 'sec-fetch-site': 'same-site' }, me)).toMatch(/same-site/);
    expect(crossSiteProblem({ origin: 'https://evil.example' }, me)).toMatch(/evil/);
    expect(crossSiteProblem({ origin: 'null' }, me)).toMatch(/null/);
    // A no-referrer page's own form post: Origin null, vouched for by Sec-Fetch-Site.
    expect(
      crossSiteProblem({ origin: 'null', 'sec-fetch-site': 'same-origin' }, me),
    ).toBeUndefined();
    expect(
      crossSiteProblem({ origin: 'https://evil.example', 'sec-fetch-site': 'same-origin' }, me),
    ).toMatch(/evil/);
  });
});
