/**
 * A local Web Push service: the `web-push-testing` package's server (RFC 8030 push endpoints,
 * RFC 8292 VAPID JWTs verified against the key the subscription was made with, RFC 8291 aes128gcm
 * payloads decrypted with the subscription's own keys), run in this process on a free port. A push
 * to a subscription it marked expired is answered 410, to a path it does not serve 404, to a
 * malformed or unauthenticated request 400, as push services do.
 */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const { PushApiModel } = require('web-push-testing/src/PushApiModel.js');
const WebPushTestingServer = require('web-push-testing/src/server.js');

export interface FakeSubscription {
  endpoint: string;
  keys: { p256dh: string; auth: string };
  /** The push service's name for it. */
  clientHash: string;
}

export interface FakePushService {
  /** Where the service listens (http://localhost:<port>). */
  url: string;
  /** A subscription for a browser, made with the server's VAPID public key as a browser makes it. */
  subscribe(applicationServerKey: string): Promise<FakeSubscription>;
  /** The payloads pushed to it, decrypted, oldest first. */
  messages(clientHash: string): string[];
  /** The browser unsubscribed: pushes to it are answered 410 Gone from now on. */
  expire(clientHash: string): void;
  close(): Promise<void>;
}

export async function startFakePushService(): Promise<FakePushService> {
  const model = new PushApiModel();
  // The package's own start listens on a fixed port and exits the process on failure: its routes
  // are mounted here on an app listening on a free port instead.
  const service = new WebPushTestingServer(model, 0);
  service.setRequestHandlers();
  const server: Server = await new Promise((resolve) => {
    const s = service._app.listen(0, '127.0.0.1', () => resolve(s));
  });
  const url = `http://localhost:${(server.address() as AddressInfo).port}`;
  model.notifyUrl = `${url}/notify/`;
  return {
    url,
    subscribe: (applicationServerKey) =>
      model.subscribe({ applicationServerKey, userVisibleOnly: 'true' }),
    messages: (clientHash) => model.getNotifications({ clientHash }).messages,
    expire: (clientHash) => model.expireSubscription(clientHash),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
