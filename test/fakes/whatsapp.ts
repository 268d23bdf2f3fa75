/**
 * A local stand-in for Meta's WhatsApp Business Cloud API, speaking the protocol
 * src/integrations/whatsapp/meta.ts expects: POST /{phone number id}/messages with a bearer token,
 * JSON { messaging_product: "whatsapp", to, type: "template", template: { name, language: { code },
 * components } }; an authentication template needs the code as the body's one parameter and as the
 * copy-code (url, index 0) button's, at most 15 characters. Accepted: 200 { messaging_product,
 * contacts: [{ input, wa_id }], messages: [{ id }] }. Errors in Graph API shape
 * { error: { message, type, code, error_data: { messaging_product, details }, fbtrace_id } } with
 * Meta's codes: 190 (token), 100 (bad parameter), 132001 (no such template/language), 132000
 * (parameter count), 131026 (recipient cannot receive), 130429 (rate limit), 131000 (5xx).
 */
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeWhatsAppMessage {
  id: string;
  to: string;
  template: string;
  language: string;
  /** The code as the body parameter carried it. */
  code: string;
}
export type FakeWhatsAppFailure = 'timeout' | '500' | 'rate_limit' | 'garbage';

export interface FakeWhatsApp {
  /** What WHATSAPP_API_URL is set to (the version path included, as Meta's). */
  url: string;
  phoneNumberId: string;
  accessToken: string;
  template: string;
  language: string;
  messages: FakeWhatsAppMessage[];
  /** Every request's body as sent (parsed), accepted or not. */
  requests: unknown[];
  /** Numbers (digits, as sent) that are not on WhatsApp: answered 131026. */
  notOnWhatsApp: Set<string>;
  failNext(kind: FakeWhatsAppFailure): void;
  close(): Promise<void>;
}

type Json = Record<string, any>;

const metaError = (code: number, message: string, details: string, type = 'OAuthException') => ({
  error: {
    message: `(#${code}) ${message}`,
    type,
    code,
    error_data: { messaging_product: 'whatsapp', details },
    fbtrace_id: randomBytes(9).toString('base64url'),
  },
});

type Refusal = { status: number; body: ReturnType<typeof metaError> };

/** Meta's answer to a malformed authentication template send, or the code it carries when it is right. */
function check(body: Json, template: string, language: string): Refusal | { code: string } {
  const bad = (details: string): Refusal => ({
    status: 400,
    body: metaError(100, 'Invalid parameter', details),
  });
  if (body.messaging_product !== 'whatsapp')
    return bad('The parameter messaging_product is required.');
  if (typeof body.to !== 'string' || !/^\d{8,15}$/.test(body.to))
    return bad('Invalid parameter: to');
  if (body.type !== 'template' || typeof body.template !== 'object')
    return bad('The parameter template is required.');
  const t = body.template as Json;
  if (t.name !== template || t.language?.code !== language) {
    return {
      status: 404,
      body: metaError(
        132001,
        'Template name does not exist in the translation',
        `template name (${String(t.name)}) does not exist in ${String(t.language?.code)}`,
      ),
    };
  }
  const components = Array.isArray(t.components) ? (t.components as Json[]) : [];
  const params = components.find((c) => c.type === 'body')?.parameters;
  const button = components.find((c) => c.type === 'button');
  const code = params?.[0]?.text;
  const mismatch = {
    status: 400,
    body: metaError(
      132000,
      'Number of parameters does not match the expected number of params',
      'body: number of localizable_params does not match the expected number of params (1)',
    ),
  };
  if (
    !Array.isArray(params) ||
    params.length !== 1 ||
    params[0].type !== 'text' ||
    typeof code !== 'string'
  )
    return mismatch;
  // The copy-code button is a url button at index 0 whose one parameter repeats the code.
  if (
    button?.sub_type !== 'url' ||
    String(button.index) !== '0' ||
    button.parameters?.length !== 1 ||
    button.parameters[0].text !== code
  )
    return mismatch;
  if (code.length > 15)
    return bad('Invalid parameter: the one-time password is longer than 15 characters');
  return { code };
}

export async function startFakeWhatsApp(
  opts: { phoneNumberId?: string; accessToken?: string; template?: string; language?: string } = {},
): Promise<FakeWhatsApp> {
  const phoneNumberId = opts.phoneNumberId ?? '106540352242922';
  const accessToken = opts.accessToken ?? `EAAfake${randomBytes(12).toString('hex')}`;
  const template = opts.template ?? 'delivery_code';
  const language = opts.language ?? 'en';
  const messages: FakeWhatsAppMessage[] = [];
  const requests: unknown[] = [];
  const notOnWhatsApp = new Set<string>();
  const failures: FakeWhatsAppFailure[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const answer = (status: number, json: unknown) =>
        res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(json));
      if (req.method !== 'POST' || req.url !== `/v21.0/${phoneNumberId}/messages`) {
        return answer(
          400,
          metaError(
            100,
            'Invalid parameter',
            `Unsupported post request. Object with ID '${req.url}' does not exist`,
            'GraphMethodException',
          ),
        );
      }
      if (req.headers.authorization !== `Bearer ${accessToken}`)
        return answer(
          401,
          metaError(
            190,
            'Invalid OAuth access token - Cannot parse access token',
            'Error validating access token',
          ),
        );
      let body: Json;
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      } catch {
        return answer(400, metaError(100, 'Invalid parameter', 'Request body is not valid JSON'));
      }
      requests.push(body);
      const failure = failures.shift();
      if (failure === 'timeout') return; // never answers
      if (failure === '500')
        return answer(
          500,
          metaError(
            131000,
            'Something went wrong',
            'Message failed to send because of an unknown error.',
          ),
        );
      if (failure === 'rate_limit')
        return answer(
          400,
          metaError(130429, 'Rate limit hit', 'Cloud API message throughput has been reached.'),
        );
      if (failure === 'garbage')
        return res.writeHead(200, { 'content-type': 'text/html' }).end('<html>gateway</html>');
      const checked = check(body, template, language);
      if ('status' in checked) return answer(checked.status, checked.body);
      if (notOnWhatsApp.has(body.to))
        return answer(
          400,
          metaError(
            131026,
            'Message Undeliverable',
            'Message failed to send because the recipient is not a WhatsApp user or cannot receive this message.',
          ),
        );
      const id = `wamid.${randomBytes(24).toString('base64url')}`;
      messages.push({ id, to: body.to, template, language, code: checked.code });
      return answer(200, {
        messaging_product: 'whatsapp',
        contacts: [{ input: body.to, wa_id: body.to }],
        messages: [{ id }],
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v21.0`,
    phoneNumberId,
    accessToken,
    template,
    language,
    messages,
    requests,
    notOnWhatsApp,
    failNext: (kind) => failures.push(kind),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
