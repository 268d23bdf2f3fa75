import webpush from 'web-push';
import { describe, expect, it } from 'vitest';
import { pushSettings } from './settings.ts';

const keys = webpush.generateVAPIDKeys();
const vapid = {
  VAPID_PUBLIC_KEY: keys.publicKey,
  VAPID_PRIVATE_KEY: keys.privateKey,
  VAPID_SUBJECT: 'mailto:ops@partners.example.gh',
};
const PUBLIC = 'https://partners.example.gh';

function read(env: Record<string, string>, url: string) {
  const problems: string[] = [];
  return { settings: pushSettings(env, url, problems), problems };
}

describe('Web Push settings', () => {
  it('make a pair at boot on a development server without keys, and take any local endpoint there', () => {
    expect(read({}, 'http://localhost:8080')).toEqual({
      settings: { vapid: 'ephemeral', endpoints: 'any', timeoutMs: 5000 },
      problems: [],
    });
  });

  it('require the three keys on a public address, or WEB_PUSH=off', () => {
    expect(read({}, PUBLIC).problems).toEqual([
      'Web Push needs VAPID_PUBLIC_KEY, VAPID_PRIVATE_KEY, VAPID_SUBJECT (npx web-push generate-vapid-keys), or WEB_PUSH=off to go without it',
    ]);
    expect(
      read({ VAPID_PUBLIC_KEY: keys.publicKey }, 'http://localhost:8080').problems,
    ).toHaveLength(1);
    expect(read({ WEB_PUSH: 'off' }, PUBLIC)).toEqual({
      settings: { vapid: 'off', endpoints: 'push-services', timeoutMs: 5000 },
      problems: [],
    });
    expect(read(vapid, PUBLIC)).toEqual({
      settings: {
        vapid: {
          publicKey: keys.publicKey,
          privateKey: keys.privateKey,
          subject: vapid.VAPID_SUBJECT,
        },
        endpoints: 'push-services',
        timeoutMs: 5000,
      },
      problems: [],
    });
  });

  it('refuse keys that are not P-256 keys and a subject that is no mailto: or https: URL', () => {
    expect(read({ ...vapid, VAPID_PUBLIC_KEY: 'abc' }, PUBLIC).problems[0]).toMatch(
      /^VAPID_PUBLIC_KEY/,
    );
    expect(read({ ...vapid, VAPID_PRIVATE_KEY: keys.publicKey }, PUBLIC).problems[0]).toMatch(
      /^VAPID_PRIVATE_KEY/,
    );
    expect(read({ ...vapid, VAPID_SUBJECT: 'http://x.example' }, PUBLIC).problems[0]).toMatch(
      /^VAPID_SUBJECT/,
    );
  });
});
