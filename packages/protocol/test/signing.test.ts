import { describe, expect, it } from 'vitest';
import {
  canonicalQuery,
  canonicalRequest,
  SIGNED_REQUEST_FORMS as FORM,
  signRequest,
} from '../src/signing.ts';

// The test vectors of the signing recipe the partner API documents.
const secret = 'sk_example_secret';
const timestamp = '1763683200';
const nonce = '6f1c2a9e-4b7d-4e3a-9c51-0d2f8e7a1b3c';

describe('request signing', () => {
  it('signs a POST with a JSON body', () => {
    const parts = {
      timestamp,
      nonce,
      method: 'POST',
      url: '/api/v1/delivery/orders.get',
      body: '{"order_id":"dlv_01HZX"}',
    };
    expect(signRequest(secret, parts)).toBe(
      'e23ec0b87ec2919995239c4a6f300c89bd52ea8237877c830af28c88c02fcfed',
    );
  });

  it('signs a GET with a query that needs re-encoding and sorting', () => {
    const url = '/api/v1/safe-catalog/catalog.list?limit=5&vendor_id=ven%20x%2Fy&a=b*c';
    expect(canonicalQuery(url.split('?')[1]!)).toBe('a=b%2Ac&limit=5&vendor_id=ven%20x%2Fy');
    expect(signRequest(secret, { timestamp, nonce, method: 'GET', url })).toBe(
      '9d6c7efba20684bb4680b44961fb2270a03354cad3069c9f588794d9686a9f58',
    );
  });

  it('canonicalises repeated names, plus signs, bare flags and reserved characters', () => {
    expect(canonicalQuery('b=2&a=2&a=1&flag&q=x+y&r=%7e%21')).toBe(
      'a=1&a=2&b=2&flag=&q=x%20y&r=~%21',
    );
    expect(canonicalQuery("s=it's(1)")).toBe('s=it%27s%281%29');
    expect(canonicalQuery('u=%C3%A9')).toBe('u=%C3%A9');
    expect(canonicalQuery('')).toBe('');
  });

  it('builds six lines with the hash of the empty body when there is none', () => {
    const lines = canonicalRequest({ timestamp, nonce, method: 'get', url: '/x' }).split('\n');
    expect(lines).toEqual([
      timestamp,
      nonce,
      'GET',
      '/x',
      '',
      'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
    ]);
  });
});

describe("the signed headers' forms", () => {
  it('accept what a signer sends: a key, seconds, a UUID nonce, the hex signature', () => {
    const signature = signRequest(secret, { timestamp, nonce, method: 'GET', url: '/x' });
    expect(FORM.apiKey.test('pk_production_abcdefghijklmnop')).toBe(true);
    expect(FORM.timestamp.test(timestamp)).toBe(true);
    expect(FORM.nonce.test(nonce)).toBe(true);
    expect(FORM.signature.test(signature)).toBe(true);
    expect(FORM.signature.test(signature.toUpperCase())).toBe(true);
  });

  it('refuse milliseconds, short nonces, other keys and anything around a value', () => {
    expect(FORM.timestamp.test('1763683200000')).toBe(false);
    expect(FORM.nonce.test('short')).toBe(false);
    expect(FORM.nonce.test(`${nonce}\n`)).toBe(false);
    expect(FORM.apiKey.test('sk_production_abcdefghijklmnop')).toBe(false);
    expect(FORM.signature.test(`${'a'.repeat(64)} `)).toBe(false);
  });
});
