import { oneOf, type Env } from '../../platform/settings.ts';
import type { S3Settings } from './s3.ts';

export type StorageSettings =
  /** `dir` unset: beside the database (DATA_DIR/media), or a temporary directory for `memory:`. */
  { kind: 'fs'; dir: string | undefined } | ({ kind: 's3' } & S3Settings);

const BUCKET = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/;

/** Where uploaded files are kept (STORAGE=fs, the default, or s3 with its S3_* settings). */
export function storageSettings(env: Env, problems: string[]): StorageSettings {
  const kind = oneOf(env, 'STORAGE', ['fs', 's3'] as const, 'fs', problems);
  if (kind === 'fs') return { kind, dir: env.STORAGE_DIR || undefined };
  const endpoint = (env.S3_ENDPOINT || '').replace(/\/+$/, '');
  const bucket = env.S3_BUCKET || '';
  const accessKeyId = env.S3_ACCESS_KEY_ID || '';
  const secretAccessKey = env.S3_SECRET_ACCESS_KEY || '';
  const region = env.S3_REGION || 'us-east-1';
  if (!/^https?:\/\/[^/]+$/.test(endpoint))
    problems.push('S3_ENDPOINT must be an http:// or https:// address without a path (STORAGE=s3)');
  if (!BUCKET.test(bucket))
    problems.push(
      'S3_BUCKET must be a bucket name: 3 to 63 lower-case letters, digits, dots and hyphens (STORAGE=s3)',
    );
  if (!/^[A-Za-z0-9-]{1,32}$/.test(region))
    problems.push('S3_REGION must be a region name such as eu-west-1, or auto for R2');
  if (!accessKeyId || /\s/.test(accessKeyId))
    problems.push('S3_ACCESS_KEY_ID must be set, without spaces (STORAGE=s3)');
  if (!secretAccessKey || /\s/.test(secretAccessKey))
    problems.push('S3_SECRET_ACCESS_KEY must be set, without spaces (STORAGE=s3)');
  return { kind, endpoint, bucket, region, accessKeyId, secretAccessKey };
}
