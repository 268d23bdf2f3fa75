import { connect } from 'node:net';
import { describe, expect, it } from 'vitest';
import { startPlatform } from '../../helpers/harness.ts';

function openSocket(port: number) {
  const socket = connect(port, '127.0.0.1');
  let received = '';
  socket.on('data', (chunk) => (received += chunk.toString('utf8')));
  const closed = new Promise<number>((resolve) => {
    const started = Date.now();
    socket.on('close', () => resolve(Date.now() - started));
    socket.on('error', () => undefined);
  });
  return { socket, closed, received: () => received };
}

describe('server limits', () => {
  it('cuts off a slow-loris client that never finishes its request', async () => {
    const p = await startPlatform({ env: { REQUEST_TIMEOUT_MS: '1000' } });
    try {
      const { socket, closed, received } = openSocket(Number(new URL(p.url).port));
      socket.write('POST /api/v1/delivery/orders.create HTTP/1.1\r\nHost: x\r\n');
      const drip = setInterval(() => socket.write('X-Slow: 1\r\n'), 200);
      const after = await closed;
      clearInterval(drip);
      expect(after).toBeLessThan(6000);
      // With the one error body, even though no request was ever read.
      expect(received()).toMatch(
        /^HTTP\/1\.1 408 [\s\S]*\r\nX-Request-Id: req_\w+\r\n[\s\S]*"code":"REQUEST_TIMEOUT"/,
      );
      // The server still answers others.
      expect((await p.fetch(`${p.url}/healthz`)).status).toBe(200);
    } finally {
      await p.close();
    }
  });

  it('bounds the number of open connections', async () => {
    const p = await startPlatform({ env: { MAX_CONNECTIONS: '20' } });
    try {
      const port = Number(new URL(p.url).port);
      const held = Array.from({ length: 20 }, () => openSocket(port));
      await new Promise((r) => setTimeout(r, 200));
      const extra = openSocket(port);
      expect(await extra.closed).toBeLessThan(2000);
      for (const h of held) h.socket.destroy();
      await new Promise((r) => setTimeout(r, 200));
      expect((await p.fetch(`${p.url}/healthz`)).status).toBe(200);
    } finally {
      await p.close();
    }
  });
});
