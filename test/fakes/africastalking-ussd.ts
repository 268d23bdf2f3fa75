/**
 * A local stand-in for Africa's Talking's USSD gateway, the side that calls us: for every step of a
 * session it POSTs the callback form (sessionId, serviceCode, phoneNumber, networkCode, text with
 * every input so far joined by `*`) and reads the text/plain answer, `CON …` (show and wait for
 * input) or `END …` (show and hang up). A session refuses more input once it has ended, as the
 * handset would.
 */
import { randomUUID } from 'node:crypto';

export interface UssdScreen {
  /** HTTP status of the callback's answer (the gateway shows a network error for anything but 200). */
  status: number;
  kind: 'CON' | 'END' | 'other';
  /** The screen without its CON/END prefix (the whole body when `kind` is 'other'). */
  text: string;
  body: string;
}

export interface UssdGatewayOptions {
  /** The callback URL configured at the aggregator, secret included. */
  callbackUrl: string;
  serviceCode?: string;
  networkCode?: string;
}

/** Sends one callback exactly as the gateway does; `fields` may be anything (hostile tests). */
export async function postUssdCallback(
  url: string,
  fields: Record<string, string>,
  contentType = 'application/x-www-form-urlencoded',
): Promise<UssdScreen> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': contentType, accept: 'text/plain' },
    body: new URLSearchParams(fields).toString(),
  });
  const body = await res.text();
  const m = /^(CON|END) ([\s\S]*)$/.exec(body);
  return m
    ? { status: res.status, kind: m[1] as 'CON' | 'END', text: m[2]!, body }
    : { status: res.status, kind: 'other', text: body, body };
}

/** One caller's session: dial, then answer each CON screen. */
export class UssdSession {
  readonly sessionId = `ATUid_${randomUUID().replace(/-/g, '')}`;
  private readonly inputs: string[] = [];
  private ended = false;

  constructor(
    private readonly gateway: Required<UssdGatewayOptions>,
    readonly phoneNumber: string,
  ) {}

  /** The first callback: `text` empty, or what was dialled after the service code (`*384*123*CODE#`). */
  dial(extra?: string): Promise<UssdScreen> {
    if (extra !== undefined) this.inputs.push(extra);
    return this.send();
  }

  /** The caller types `input` on a CON screen. */
  reply(input: string): Promise<UssdScreen> {
    if (this.ended) throw new Error('The session has ended; the handset takes no more input.');
    this.inputs.push(input);
    return this.send();
  }

  private async send(): Promise<UssdScreen> {
    const screen = await postUssdCallback(this.gateway.callbackUrl, {
      sessionId: this.sessionId,
      serviceCode: this.gateway.serviceCode,
      phoneNumber: this.phoneNumber,
      networkCode: this.gateway.networkCode,
      text: this.inputs.join('*'),
    });
    if (screen.kind !== 'CON') this.ended = true;
    return screen;
  }
}

/** The gateway for one callback URL: opens sessions for callers. */
export function fakeUssdGateway(options: UssdGatewayOptions) {
  const gateway = { serviceCode: '*384*1234#', networkCode: '62001', ...options };
  return { session: (phoneNumber: string) => new UssdSession(gateway, phoneNumber) };
}
