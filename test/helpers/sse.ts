import type { WebClient } from './web.ts';

export interface SseEvent {
  id: string | undefined;
  event: string;
  data: any;
}

/** An open server-sent event stream read by the test: each event as it arrives, and a way to close it. */
export interface SseStream {
  status: number;
  contentType: string | null;
  events: SseEvent[];
  /** The first event (from `from` on) matching `match`, waiting for it up to `timeoutMs`. */
  next(match: (e: SseEvent) => boolean, timeoutMs?: number, from?: number): Promise<SseEvent>;
  close(): void;
}

export async function openStream(
  web: WebClient,
  path: string,
  headers: Record<string, string> = {},
): Promise<SseStream> {
  const abort = new AbortController();
  const cookie = [...web.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  const res = await fetch(new URL(path, web.base), {
    headers: { accept: 'text/event-stream', ...(cookie ? { cookie } : {}), ...headers },
    signal: abort.signal,
  });
  const events: SseEvent[] = [];
  const waiters = new Set<() => void>();
  if (res.ok && res.body) {
    void (async () => {
      const decoder = new TextDecoder();
      let buffer = '';
      try {
        for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
          buffer += decoder.decode(chunk, { stream: true });
          let cut: number;
          while ((cut = buffer.indexOf('\n\n')) >= 0) {
            const block = buffer.slice(0, cut);
            buffer = buffer.slice(cut + 2);
            const fields = new Map<string, string>();
            for (const line of block.split('\n')) {
              if (!line || line.startsWith(':')) continue;
              const at = line.indexOf(':');
              fields.set(line.slice(0, at), line.slice(at + 1).trimStart());
            }
            if (!fields.has('data')) continue;
            events.push({
              id: fields.get('id'),
              event: fields.get('event') ?? 'message',
              data: JSON.parse(fields.get('data')!),
            });
            for (const w of waiters) w();
          }
        }
      } catch {
        // aborted by close()
      }
    })();
  } else {
    await res.body?.cancel();
  }
  return {
    status: res.status,
    contentType: res.headers.get('content-type'),
    events,
    next(match, timeoutMs = 5000, from = 0) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const hit = events.slice(from).find(match);
          if (!hit) return;
          waiters.delete(check);
          clearTimeout(timer);
          resolve(hit);
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(
            new Error(`no matching event within ${timeoutMs} ms; got ${JSON.stringify(events)}`),
          );
        }, timeoutMs);
        waiters.add(check);
        check();
      });
    },
    close: () => abort.abort(),
  };
}
