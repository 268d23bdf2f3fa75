import {
  assertContentType,
  assertSafeKey,
  type ObjectStorage,
  type StoredObject,
} from './storage.ts';
import { sha256Hex, signRequest, uriEncode, type SigV4Credentials } from './sigv4.ts';

export interface S3Settings {
  /** Where the store answers: https://s3.eu-west-1.amazonaws.com, http://minio:9000, https://<account>.r2.cloudflarestorage.com … */
  endpoint: string;
  bucket: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
}

const TIMEOUT_MS = 15_000;

/** S3 answers errors as XML; its <Code> says what went wrong (never the credentials). */
async function errorCode(res: Response): Promise<string> {
  return /<Code>([^<]{1,64})<\/Code>/.exec(await res.text())?.[1] ?? 'no error code';
}

/**
 * Any S3-compatible store, addressed path-style (`<endpoint>/<bucket>/<key>`, which AWS, MinIO and R2
 * all accept), each request signed with AWS Signature V4. Bodies are signed too (their SHA-256).
 */
export class S3Storage implements ObjectStorage {
  readonly summary: string;
  private readonly creds: SigV4Credentials;

  constructor(
    private readonly settings: S3Settings,
    private readonly clock: () => number = Date.now,
  ) {
    this.creds = {
      accessKeyId: settings.accessKeyId,
      secretAccessKey: settings.secretAccessKey,
      region: settings.region,
      service: 's3',
    };
    this.summary = `storage: S3-compatible bucket ${settings.bucket} at ${new URL(settings.endpoint).host} (${settings.region})`;
  }

  private async send(
    method: 'PUT' | 'GET' | 'DELETE',
    key: string,
    body?: Uint8Array,
    contentType?: string,
  ): Promise<Response> {
    assertSafeKey(key);
    const base = this.settings.endpoint.replace(/\/+$/, '');
    const url = new URL(
      `${base}/${uriEncode(this.settings.bucket)}/${key.split('/').map(uriEncode).join('/')}`,
    );
    const headers = signRequest(
      {
        method,
        url,
        headers: contentType ? { 'content-type': contentType } : {},
        payloadHash: sha256Hex(body ?? ''),
        now: new Date(this.clock()),
      },
      this.creds,
    );
    try {
      return await fetch(url, {
        method,
        headers,
        body: body && new Uint8Array(body),
        signal: AbortSignal.timeout(TIMEOUT_MS),
      });
    } catch (err) {
      throw new Error(
        `storage: ${method} ${key} did not reach ${url.host}: ${(err as Error).message}`,
      );
    }
  }

  private refuse(method: string, key: string, res: Response, code: string): never {
    throw new Error(`storage: ${method} ${key} answered ${res.status} (${code})`);
  }

  async put(key: string, bytes: Uint8Array, contentType: string): Promise<void> {
    assertContentType(contentType);
    const res = await this.send('PUT', key, bytes, contentType);
    if (!res.ok) this.refuse('PUT', key, res, await errorCode(res));
    await res.arrayBuffer();
  }

  async get(key: string): Promise<StoredObject | undefined> {
    const res = await this.send('GET', key);
    if (!res.ok) {
      const code = await errorCode(res);
      // A missing object is an answer; a missing bucket (also 404) is a misconfiguration.
      if (code === 'NoSuchKey') return undefined;
      this.refuse('GET', key, res, code);
    }
    return {
      bytes: Buffer.from(await res.arrayBuffer()),
      contentType: res.headers.get('content-type') ?? 'application/octet-stream',
    };
  }

  async delete(key: string): Promise<void> {
    const res = await this.send('DELETE', key);
    if (res.ok) {
      await res.arrayBuffer();
      return;
    }
    const code = await errorCode(res);
    if (code !== 'NoSuchKey') this.refuse('DELETE', key, res, code);
  }
}
