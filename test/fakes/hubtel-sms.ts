/**
 * A local stand-in for Hubtel's SMS API, speaking the protocol src/integrations/sms/hubtel.ts
 * expects (and, through `callbacks`, the provider's side of the platform's SMS callbacks:
 * form-encoded delivery reports and inbound texts, as src/modules/messages/routes/callbacks.ts reads them): POST /v1/messages/send, HTTP Basic (client id : client secret), JSON { From, To, Content },
 * answered 201 { messageId, status: 0, rate, networkId, statusDescription }. Bad credentials answer
 * 401 and a bad body 400 (Hubtel's exact error bodies are not published; these are plausible).
 */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeSmsMessage {
  messageId: string;
  from: string;
  to: string;
  content: string;
}
export interface FakeSmsRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}
export type FakeSmsFailure = 'timeout' | '500' | '400' | 'garbage' | 'status';

export interface FakeHubtelSms {
  url: string;
  clientId: string;
  clientSecret: string;
  messages: FakeSmsMessage[];
  requests: FakeSmsRequest[];
  /** The next authenticated send fails this way (queued, one per call). */
  failNext(kind: FakeSmsFailure): void;
  close(): Promise<void>;
}

export async function startFakeHubtelSms(
  opts: { clientId?: string; clientSecret?: string } = {},
): Promise<FakeHubtelSms> {
  const clientId = opts.clientId ?? 'fake-sms-client';
  const clientSecret = opts.clientSecret ?? 'fake-sms-secret';
  const expected = `Basic ${Buffer.from(`${clientId}:${clientSecret}`).toString('base64')}`;
  const messages: FakeSmsMessage[] = [];
  const requests: FakeSmsRequest[] = [];
  const failures: FakeSmsFailure[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      requests.push({ method: req.method ?? '', path: req.url ?? '', headers: req.headers, body });
      const answer = (status: number, json: unknown) =>
        res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(json));
      if (req.method !== 'POST' || req.url !== '/v1/messages/send')
        return answer(404, { message: 'Not found' });
      if (req.headers.authorization !== expected)
        return answer(401, { message: 'Authorization has been denied for this request.' });
      const failure = failures.shift();
      if (failure === 'timeout') return; // never answers
      if (failure === '500') return answer(500, { message: 'Internal error' });
      if (failure === 'garbage')
        return res.writeHead(200, { 'content-type': 'text/html' }).end('<html>gateway</html>');
      if (failure === 'status')
        return answer(200, { status: 3, statusDescription: 'Insufficient credit' });
      let parsed: { From?: unknown; To?: unknown; Content?: unknown };
      try {
        parsed = JSON.parse(body);
      } catch {
        return answer(400, { message: 'Invalid request' });
      }
      if (
        failure === '400' ||
        typeof parsed.From !== 'string' ||
        typeof parsed.To !== 'string' ||
        !/^233\d{9}$/.test(parsed.To) ||
        typeof parsed.Content !== 'string' ||
        !parsed.Content
      ) {
        return answer(400, { message: 'Invalid destination or content' });
      }
      const messageId = randomUUID();
      messages.push({ messageId, from: parsed.From, to: parsed.To, content: parsed.Content });
      return answer(201, {
        rate: 0.03,
        messageId,
        status: 0,
        networkId: '62001',
        clientReference: null,
        statusDescription: 'request submitted successfully',
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    clientId,
    clientSecret,
    messages,
    requests,
    failNext: (kind) => failures.push(kind),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** What the provider posts back to the platform: delivery reports and texts recipients send us. */
export interface SmsCallbacks {
  /** A delivery report for `messageId` (Delivered, Failed, Sent…); answers the HTTP status and body. */
  report(
    messageId: string,
    status: string,
    reason?: string,
  ): Promise<{ status: number; body: any }>;
  /** A text `from` sent to our number. */
  inbound(from: string, content: string, to?: string): Promise<{ status: number; body: any }>;
  /** Any form, for hostile input. */
  post(
    kind: 'report' | 'inbound',
    fields: Record<string, string>,
    secret?: string,
  ): Promise<{ status: number; body: any }>;
}

/** The provider's callbacks to a platform at `baseUrl`, whose SMS_CALLBACK_SECRET is `secret`. */
export function smsCallbacks(baseUrl: string, secret: string): SmsCallbacks {
  const post: SmsCallbacks['post'] = async (kind, fields, key = secret) => {
    const res = await fetch(`${baseUrl}/webhooks/sms/hubtel/${kind}/${key}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(fields).toString(),
    });
    const text = await res.text();
    let body: unknown = text;
    try {
      body = JSON.parse(text);
    } catch {}
    return { status: res.status, body };
  };
  return {
    post,
    report: (messageId, status, reason) =>
      post('report', {
        MessageId: messageId,
        Status: status,
        ...(reason ? { Reason: reason } : {}),
      }),
    inbound: (from, content, to = '1442') =>
      post('inbound', { From: from, To: to, Content: content }),
  };
}
