import type { FastifyInstance } from 'fastify';
import sjson from 'secure-json-parse';
import { errors } from '../errors.ts';

/**
 * Bodies are kept as raw bytes until the request is authenticated: the signature covers the exact
 * bytes, and the contract checks the key and signature before it looks at the JSON.
 */
export function keepRawBodies(app: FastifyInstance, bodyLimit: number): void {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit }, (_req, body, done) => done(null, body));
}

/** Parses a raw body that must be a JSON object. */
export function parseJsonObject(raw: unknown): Record<string, unknown> {
  const text = Buffer.isBuffer(raw) ? raw.toString('utf8') : '';
  if (text.trim() === '') throw errors.invalidJson('The request body is empty; send a JSON object.');
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
