import type { FastifyInstance } from 'fastify';

// Statuses whose Response may carry no body (the Fetch standard's null body statuses).
const NULL_BODY = new Set([101, 103, 204, 205, 304]);

/**
 * A `fetch` that hands each request to the app in this process (Fastify's `inject`): the same
 * hooks, validation, auth and handlers as a request through a socket, without a port, a connection
 * or the kernel between them. For the SDK and the operator API in tests that need no socket; a
 * stream that never ends (server-sent events) needs a real one.
 */
export function injectFetch(app: FastifyInstance): typeof fetch {
  return async (input, init) => {
    const request = new Request(input, init);
    const url = new URL(request.url);
    // What a real fetch sends on its own: the host it dialled, and undici's defaults.
    const headers: Record<string, string> = {
      host: url.host,
      accept: '*/*',
      'user-agent': 'node',
      ...Object.fromEntries(request.headers),
    };
    const payload = request.body ? Buffer.from(await request.arrayBuffer()) : undefined;
    const res = await app.inject({
      method: request.method as 'GET',
      url: url.pathname + url.search,
      headers,
      ...(payload ? { payload } : {}),
    });
    const answer = new Headers();
    for (const [name, value] of Object.entries(res.headers)) {
      if (value === undefined) continue;
      for (const one of Array.isArray(value) ? value : [value]) answer.append(name, String(one));
    }
    const empty = NULL_BODY.has(res.statusCode) || request.method === 'HEAD';
    return new Response(empty ? null : new Uint8Array(res.rawPayload), {
      status: res.statusCode,
      statusText: res.statusMessage,
      headers: answer,
    });
  };
}
