import { describe, expect, it } from 'vitest';
import { REDACTED, redactSecrets } from './redact.ts';

describe('audit redaction', () => {
  it('replaces secret-named fields at any depth and keeps ids, hints and the rest', () => {
    const value = {
      partner_id: 'ptn_1',
      name: 'Acme',
      api_key: 'pk_staging_x',
      signing_secret: 'sk_staging_y',
      webhook_secret: 'whsec_z',
      password: 'hunter2hunter2',
      token: 'opt_abc',
      token_id: 'otk_1',
      key_hint: 'pk_st…abcd',
      totp_secret: 'JBSWY3DP',
      otpauth_uri: 'otpauth://totp/x',
      code: '123456',
      bank_code: 'GCB',
      nested: [{ Authorization: 'Bearer x', ok: 1 }],
      at: new Date(0),
    };
    expect(redactSecrets(value)).toEqual({
      partner_id: 'ptn_1',
      name: 'Acme',
      api_key: REDACTED,
      signing_secret: REDACTED,
      webhook_secret: REDACTED,
      password: REDACTED,
      token: REDACTED,
      token_id: 'otk_1',
      key_hint: 'pk_st…abcd',
      totp_secret: REDACTED,
      otpauth_uri: REDACTED,
      code: REDACTED,
      bank_code: 'GCB',
      nested: [{ Authorization: REDACTED, ok: 1 }],
      at: '1970-01-01T00:00:00.000Z',
    });
  });

  it('drops NUL characters (PostgreSQL JSON cannot hold them) and bounds the depth', () => {
    expect(redactSecrets({ note: 'a\u0000b' })).toEqual({ note: 'ab' });
    let deep: unknown = 'x';
    for (let i = 0; i < 20; i++) deep = { d: deep };
    expect(JSON.stringify(redactSecrets(deep))).toContain(REDACTED);
    expect(redactSecrets(undefined)).toBeNull();
  });
});
