import { describe, expect, it } from 'vitest';
import { addressKind, webhookUrlProblem, type AddressKind } from './url-policy.ts';

const KINDS: Array<[AddressKind, string[]]> = [
  [
    'public',
    [
      '8.8.8.8',
      '1.1.1.1',
      '93.184.215.14',
      '100.63.255.255',
      '100.128.0.1',
      '172.32.0.1',
      '169.253.255.255',
      '2606:4700:4700::1111',
      '2001:4860:4860::8888',
      '2a00:1450:4001::1',
      // IPv4-mapped, IPv4-compatible and NAT64 well-known forms of a public IPv4 address.
      '::ffff:8.8.8.8',
      '::ffff:808:808',
      '::8.8.8.8',
      '::808:808',
      '64:ff9b::808:808',
      '64:ff9b::8.8.8.8',
    ],
  ],
  [
    'local',
    [
      '127.0.0.1',
      '127.255.255.254',
      '10.0.0.1',
      '172.16.0.1',
      '172.31.255.255',
      '192.168.1.1',
      '::1',
      'fd00::1',
      'fc00::1',
      'fdff:ffff::1',
      '::ffff:127.0.0.1',
      '::ffff:7f00:1',
      '::ffff:10.0.0.1',
      '::ffff:a00:1',
      '0:0:0:0:0:ffff:c0a8:101',
      '::127.0.0.1',
      '::7f00:1',
      '::a00:1',
      '::10.0.0.1',
      '64:ff9b::7f00:1',
      '64:ff9b::a00:1',
    ],
  ],
  [
    'refused',
    [
      // IPv4: unspecified, link-local and metadata, carrier-grade NAT, IETF, documentation,
      // benchmarking, 6to4 relay, AS112, AMT, multicast, reserved, broadcast.
      '0.0.0.0',
      '0.1.2.3',
      '169.254.169.254',
      '169.254.0.1',
      '100.64.0.1',
      '100.127.255.255',
      '192.0.0.8',
      '192.0.2.1',
      '198.51.100.7',
      '203.0.113.9',
      '198.18.0.1',
      '198.19.255.255',
      '192.88.99.1',
      '192.175.48.1',
      '192.52.193.1',
      '224.0.0.1',
      '239.255.255.250',
      '240.0.0.1',
      '255.255.255.255',
      // IPv6: unspecified, link-local, site-local, multicast, documentation, discard, SRv6, outside 2000::/3.
      '::',
      'fe80::1',
      'fe80::a9fe:a9fe',
      'fec0::1',
      'ff02::1',
      'ff05::1:3',
      '2001:db8::1',
      '3fff::1',
      '100::1',
      '5f00::1',
      '4000::1',
      '2001:2::1',
      // IPv4 embedded in IPv6: metadata and link-local through every form.
      '::ffff:169.254.169.254',
      '::ffff:a9fe:a9fe',
      '::169.254.169.254',
      '::a9fe:a9fe',
      '64:ff9b::a9fe:a9fe',
      '64:ff9b::169.254.169.254',
      '::ffff:100.64.0.1',
      '::ffff:0.0.0.0',
      '::ffff:0:a9fe:a9fe',
      // NAT64 local-use, 6to4 and Teredo: refused whatever they carry.
      '64:ff9b:1::a9fe:a9fe',
      '64:ff9b:1::808:808',
      '64:ff9b:1:ffff::808:808',
      '2002:a9fe:a9fe::',
      '2002:7f00:1::1',
      '2002:808:808::1',
      '2001:0:4136:e378:8000:63bf:3fff:fdd2',
      '2001::a9fe:a9fe',
      // Not addresses at all.
      'localhost',
      'example.com',
      '',
      '127.1',
      '0x7f.0.0.1',
    ],
  ],
];

describe('address kinds (an allow-list: only global unicast is public)', () => {
  for (const [kind, addresses] of KINDS) {
    it.each(addresses)(`%s is ${kind}`, (address) => {
      expect(addressKind(address)).toBe(kind);
    });
  }
});

// Hosts that must never receive events by default, however they are spelled.
const REFUSED_HOSTS = [
  // IPv4 spellings that URL parsing turns into 169.254.169.254 or loopback.
  '169.254.169.254',
  '2852039166',
  '0xa9.0xfe.0xa9.0xfe',
  '0xa9fea9fe',
  '0251.0376.0251.0376',
  '169.254.43518',
  '169.254.169.254.',
  '127.0.0.1',
  '127.1',
  '0x7f000001',
  '017700000001',
  '2130706433',
  '0',
  '0.0.0.0',
  '%31%32%37.0.0.1',
  '１２７.０.０.１',
  '10.0.0.1',
  '192.168.1.10',
  '172.16.5.4',
  '100.64.0.1',
  '192.0.2.1',
  '198.18.0.1',
  '224.0.0.1',
  '255.255.255.255',
  // IPv6 literals and IPv4 embedded in them.
  '[::1]',
  '[0:0:0:0:0:0:0:1]',
  '[::]',
  '[fe80::1]',
  '[fd12:3456::1]',
  '[ff02::1]',
  '[2001:db8::1]',
  '[fec0::1]',
  '[::ffff:169.254.169.254]',
  '[::ffff:a9fe:a9fe]',
  '[0:0:0:0:0:ffff:7f00:1]',
  '[::ffff:127.0.0.1]',
  '[::127.0.0.1]',
  '[::a00:1]',
  '[::169.254.169.254]',
  '[64:ff9b::a9fe:a9fe]',
  '[64:ff9b::169.254.169.254]',
  '[64:ff9b::7f00:1]',
  '[64:ff9b:1::a9fe:a9fe]',
  '[2002:a9fe:a9fe::]',
  '[2002:7f00:1::]',
  '[2001:0:4136:e378:8000:63bf:3fff:fdd2]',
  // Names that only mean something locally, with and without a trailing dot, in any case.
  'localhost',
  'localhost.',
  'localhost..',
  'LocalHost.',
  'foo.localhost',
  'foo.localhost.',
  'vm',
  'vm.',
  'intranet',
  'metadata.google.internal',
  'metadata.google.internal.',
  'printer.local',
  'router.home.arpa',
  '1.0.0.127.in-addr.arpa',
  'hooks.test',
  'db.lan',
  'x.localdomain',
];

describe('webhook URL policy without DNS', () => {
  it.each(REFUSED_HOSTS)('refuses %s for production and staging', (host) => {
    expect(webhookUrlProblem(`https://${host}/hooks`, 'production', false), 'production').toMatch(
      /^must point to a public (address|host)/,
    );
    expect(webhookUrlProblem(`http://${host}:4000/hooks`, 'staging', false), 'staging').toMatch(
      /^must point to a public (address|host)/,
    );
    // Production never, whatever the local switch says.
    expect(
      webhookUrlProblem(`https://${host}/hooks`, 'production', true),
      'production, local on',
    ).toMatch(/^must point to a public (address|host)/);
  });

  it.each([
    'hooks.example.com',
    'EXAMPLE.com.',
    '8.8.8.8',
    '134744072',
    '[2606:4700:4700::1111]',
    '[::ffff:8.8.8.8]',
    '[64:ff9b::808:808]',
  ])('accepts %s for both environments (names are resolved by the caller)', (host) => {
    expect(webhookUrlProblem(`https://${host}/hooks`, 'production', false)).toBeNull();
    expect(webhookUrlProblem(`http://${host}/hooks`, 'staging', false)).toBeNull();
  });

  it.each([
    '127.0.0.1:4000',
    'localhost:4000',
    'localhost.:4000',
    'vm:4000',
    '[::1]:4000',
    '10.0.0.5',
    '192.168.1.10',
    '[fd00::1]',
    '[::ffff:127.0.0.1]',
  ])('lets staging events reach the local receiver %s only with local destinations on', (host) => {
    expect(webhookUrlProblem(`http://${host}/hooks`, 'staging', true)).toBeNull();
    expect(webhookUrlProblem(`http://${host}/hooks`, 'staging', false)).toMatch(/public/);
  });

  it.each([
    '169.254.169.254',
    '2852039166',
    '[fe80::1]',
    '100.64.0.1',
    '0.0.0.0',
    '[64:ff9b::a9fe:a9fe]',
    '[2002:a9fe:a9fe::]',
    '224.0.0.1',
  ])('still refuses %s for staging with local destinations on', (host) => {
    expect(webhookUrlProblem(`http://${host}/hooks`, 'staging', true)).toMatch(
      /not a globally routable address/,
    );
  });

  it('says how a staging developer gets a local receiver, and never suggests it for production', () => {
    expect(webhookUrlProblem('http://127.0.0.1:4000/', 'staging', false)).toMatch(
      /WEBHOOK_LOCAL_DESTINATIONS=on/,
    );
    expect(webhookUrlProblem('https://127.0.0.1:4000/', 'production', false)).not.toMatch(
      /WEBHOOK_LOCAL_DESTINATIONS/,
    );
  });

  it('keeps the syntactic rules: http(s), no credentials, https for production', () => {
    for (const env of ['staging', 'production'] as const) {
      expect(webhookUrlProblem('ftp://example.com/', env, false)).toMatch(/http/);
      expect(webhookUrlProblem('not a url', env, false)).toMatch(/http/);
      expect(webhookUrlProblem('https://user:pw@example.com/', env, false)).toMatch(/credentials/);
    }
    expect(webhookUrlProblem('http://hooks.example.com/x', 'production', false)).toMatch(/https/);
    expect(webhookUrlProblem('http://hooks.example.com/x', 'production', true)).toMatch(/https/);
  });
});
