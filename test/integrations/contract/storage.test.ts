import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config.ts';
import {
  createStorage,
  FileStorage,
  S3Storage,
  type ObjectStorage,
} from '../../../src/integrations/storage/index.ts';
import { startFakeS3, s3Env, type FakeS3 } from '../../fakes/s3.ts';

let fake: FakeS3;
let dir: string;
beforeAll(async () => {
  fake = await startFakeS3();
  dir = mkdtempSync(join(tmpdir(), 'storage-test-'));
});
afterAll(async () => {
  await fake.close();
  rmSync(dir, { recursive: true, force: true });
});

const s3 = (over: Partial<{ secretAccessKey: string; bucket: string; clock: () => number }> = {}) =>
  new S3Storage(
    {
      endpoint: fake.url,
      bucket: over.bucket ?? fake.bucket,
      region: fake.region,
      accessKeyId: fake.accessKeyId,
      secretAccessKey: over.secretAccessKey ?? fake.secretAccessKey,
    },
    over.clock,
  );

const adapters: Array<[string, () => ObjectStorage]> = [
  ['files', () => new FileStorage(dir)],
  ['S3 (fake, signatures checked)', () => s3()],
];

describe.each(adapters)('%s', (_name, make) => {
  it('stores, reads back with its content type, replaces and deletes', async () => {
    const storage = make();
    const bytes = Buffer.from([0xff, 0xd8, 0xff, 0x00, 0x0a, 0x0d, 0x20, 0xfe]);
    await storage.put('proofs/dlv_1/a b?.jpg'.replace(/[ ?]/g, '_'), bytes, 'image/jpeg');
    expect(await storage.get('proofs/dlv_1/a_b_.jpg')).toEqual({
      bytes,
      contentType: 'image/jpeg',
    });
    await storage.put('proofs/dlv_1/a_b_.jpg', Buffer.from('png'), 'image/png');
    expect(await storage.get('proofs/dlv_1/a_b_.jpg')).toEqual({
      bytes: Buffer.from('png'),
      contentType: 'image/png',
    });
    await storage.delete('proofs/dlv_1/a_b_.jpg');
    expect(await storage.get('proofs/dlv_1/a_b_.jpg')).toBeUndefined();
    await storage.delete('proofs/dlv_1/a_b_.jpg');
  });

  it('answers undefined for a missing key and refuses unsafe keys and content types before any I/O', async () => {
    const storage = make();
    expect(await storage.get('nothing/here')).toBeUndefined();
    for (const key of ['../escape', 'a/../../b', '/etc/passwd', 'a\0b', '']) {
      await expect(storage.put(key, Buffer.from('x'), 'image/png'), key).rejects.toThrow(/refused/);
      await expect(storage.get(key), key).rejects.toThrow(/refused/);
      await expect(storage.delete(key), key).rejects.toThrow(/refused/);
    }
    await expect(storage.put('ok', Buffer.from('x'), 'image/png\r\nx-evil: 1')).rejects.toThrow(
      /refused/,
    );
  });
});

describe('files', () => {
  it('keeps nothing outside its directory and no temporary files behind', async () => {
    const storage = new FileStorage(join(dir, 'inner'));
    await storage.put('k/v', Buffer.from('x'), 'text/plain');
    expect(readdirSync(join(dir, 'inner', 'k'))).toEqual(['v']);
  });
});

describe('S3 signatures, as the fake checks them', () => {
  it('sends a valid signature on every request (the fake refuses anything else)', async () => {
    const before = fake.requests.length;
    await s3().put('sig/ok', Buffer.from('x'), 'image/webp');
    expect(fake.requests.slice(before).map((r) => r.status)).toEqual([200]);
    expect(fake.objects.get('sig/ok')?.contentType).toBe('image/webp');
  });

  it('fails with the store’s error code when the secret is wrong, the clock is off or the bucket is unknown', async () => {
    await expect(
      s3({ secretAccessKey: 'wrong-secret' }).put('sig/bad', Buffer.from('x'), 'image/png'),
    ).rejects.toThrow(/403 \(SignatureDoesNotMatch\)/);
    await expect(s3({ clock: () => Date.now() - 3_600_000 }).get('sig/ok')).rejects.toThrow(
      /403 \(RequestTimeTooSkewed\)/,
    );
    await expect(s3({ bucket: 'other-bucket' }).get('sig/ok')).rejects.toThrow(
      /404 \(NoSuchBucket\)/,
    );
    expect(fake.objects.has('sig/bad')).toBe(false);
  });

  it('reports an unreachable store as an error naming the host, not the credentials', async () => {
    const down = new S3Storage({
      endpoint: 'http://127.0.0.1:1',
      bucket: 'b-b-b',
      region: 'x',
      accessKeyId: 'AK',
      secretAccessKey: 'SECRET',
    });
    const err = await down.get('k').catch((e: Error) => e);
    expect(String(err)).toMatch(/did not reach 127\.0\.0\.1:1/);
    expect(String(err)).not.toMatch(/SECRET/);
  });
});

describe('settings', () => {
  it('reads STORAGE=s3 with its S3_* settings, files by default', () => {
    expect(loadConfig({ DATABASE_URL: 'memory:' }).storage).toEqual({ kind: 'fs', dir: undefined });
    expect(loadConfig({ DATABASE_URL: 'memory:', ...s3Env(fake) }).storage).toMatchObject({
      kind: 's3',
      endpoint: fake.url,
      bucket: fake.bucket,
      region: fake.region,
    });
  });

  it('reports every missing or malformed S3 setting at once', () => {
    expect(() =>
      loadConfig({
        STORAGE: 's3',
        S3_ENDPOINT: 'ftp://x',
        S3_BUCKET: 'A',
        S3_REGION: 'bad region',
      }),
    ).toThrow(/S3_ENDPOINT.*S3_BUCKET.*S3_REGION.*S3_ACCESS_KEY_ID.*S3_SECRET_ACCESS_KEY/);
    expect(() => loadConfig({ STORAGE: 'ftp' })).toThrow(/STORAGE must be one of fs, s3/);
  });

  it('puts files beside the database, or in a temporary directory removed on close for memory:', async () => {
    expect(
      createStorage({ kind: 'fs', dir: undefined }, { dataDir: '/srv/data', memory: false }).storage
        .summary,
    ).toBe('storage: files under /srv/data/media');
    const temp = createStorage(
      { kind: 'fs', dir: undefined },
      { dataDir: '/srv/data', memory: true },
    );
    await temp.storage.put('a', Buffer.from('x'), 'text/plain');
    const where = temp.storage.summary.replace('storage: files under ', '');
    expect(where.startsWith(tmpdir())).toBe(true);
    temp.close();
    expect(() => readdirSync(where)).toThrow();
  });
});
