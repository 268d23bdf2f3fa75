import type { FastifyInstance } from 'fastify';
import sjson from 'secure-json-parse';
import { errors } from '../errors.ts';

/**
 * Bodies are kept as raw bytes until the request is authenticated: the signature covers the exact
 * bytes, and the contract checks the key and signature before it looks at the JSON.
 */
export function keepRawBodies(app: FastifyInstance, bodyLimit: number): void {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit }, (_req, body, done) =>
    done(null, body),
  );
}

export const MEDIA_TYPE_HINT = 'Send the body as Content-Type: application/json (UTF-8).';

/**
 * True for `application/json`, bare or with `charset=utf-8`. A header Fastify cannot parse at all is
 * refused before routing with the same code; no Content-Type is taken as JSON.
 */
function isJsonMediaType(contentType: string | undefined): boolean {
  if (contentType === undefined) return true;
  const [type, ...params] = contentType.split(';').map((part) => part.trim().toLowerCase());
  return (
    type === 'application/json' &&
    params.every((param) => param === '' || /^charset="?utf-8"?$/.test(param))
  );
}

/** Parses a raw body that must be a JSON object sent as JSON. */
export function parseJsonObject(
  raw: unknown,
  contentType: string | undefined,
): Record<string, unknown> {
  if (!isJsonMediaType(contentType)) throw errors.unsupportedMediaType(MEDIA_TYPE_HINT);
  const text = Buffer.isBuffer(raw) ? raw.toString('utf8') : '';
  if (text.trim() === '')
    throw errors.invalidJson('The request body is empty; send a JSON object.');
  let value: unknown;
  try {
    value = sjson.parse(text, undefined, { protoAction: 'error', constructorAction: 'error' });
  } catch {
    throw errors.invalidJson('The request body is not valid JSON.');
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw errors.invalidJson('The request body must be a JSON object.');
  }
  return value as Record<string, unknown>;
}
