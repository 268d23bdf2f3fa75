import { PartnerApiError, PartnerClient, type ClientOptions } from '@partner-platform/sdk';
import { expect } from 'vitest';

/** One scripted fetch: answer, fail, or pass to the real server. */
export type Step = (input: RequestInfo | URL, init: RequestInit) => Promise<Response>;

export interface Seen {
  path: string;
  nonce: string;
  timestamp: string;
  body: string | undefined;
}

export const netError = (code: string): Step => async () => {
  throw new TypeError('fetch failed', { cause: Object.assign(new Error(code), { code }) });
};

export const answer = (status: number, body: unknown, headers: Record<string, string> = {}): Step => async () =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });

/** The request reaches the server and takes effect, but its answer is lost on the way back. */
export const landThenLose: Step = async (input, init) => {
  await (await fetch(input, init)).text();
  throw new TypeError('fetch failed', { cause: Object.assign(new Error('other side closed'), { code: 'UND_ERR_SOCKET' }) });
};

/** A client whose first fetches follow `steps`; later ones go to the real server. Records every attempt. */
export function scripted(creds: { apiKey: string; signingSecret: string; baseUrl: string }, steps: Step[], options: Partial<ClientOptions> = {}) {
  const seen: Seen[] = [];
  const queue = [...steps];
  const fetchImpl: typeof fetch = async (input, init = {}) => {
    const headers = init.headers as Record<string, string>;
    seen.push({ path: new URL(String(input)).pathname, nonce: headers['x-nonce']!, timestamp: headers['x-timestamp']!, body: init.body as string | undefined });
    const step = queue.shift();
    return step ? step(input, init) : fetch(input, init);
  };
  const client = new PartnerClient({ ...creds, retryBaseDelayMs: 5, fetch: fetchImpl, ...options });
  return { client, seen };
}

/** The error a call rejects with (fails the test when it resolves). */
export async function rejection<T = PartnerApiError>(call: Promise<unknown>): Promise<T & Record<string, any>> {
  const err = await call.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err, 'expected the call to fail').toBeInstanceOf(Error);
  return err as T & Record<string, any>;
}
