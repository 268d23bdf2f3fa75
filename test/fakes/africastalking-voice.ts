/**
 * A local stand-in for Africa's Talking's voice API, the side that calls us when someone dials our
 * number: it POSTs the call's callback form (isActive, sessionId, direction, callerNumber,
 * destinationNumber) and follows the XML actions it gets back, as the provider does: a `<Say>` is
 * spoken, a `<GetDigits>` keys in what the caller types and POSTs it as `dtmfDigits` to its
 * `callbackUrl`, a `<Dial>` connects the call to `phoneNumbers` showing `callerId`. When the call
 * ends it POSTs `isActive=0`.
 */
import { randomUUID } from 'node:crypto';

export interface CallOutcome {
  /** Every answer's HTTP status, in order. */
  statuses: number[];
  /** What the caller heard. */
  said: string[];
  /** Whether the call asked for digits. */
  askedForDigits: boolean;
  /** The number the call was connected to and the number shown, when it was. */
  dialled?: { phoneNumbers: string; callerId: string | undefined };
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
const unescapeXml = (s: string) =>
  s.replace(/&(#\d+|\w+);/g, (m, e: string) =>
    e.startsWith('#') ? String.fromCharCode(Number(e.slice(1))) : (ENTITIES[e] ?? m),
  );
const attr = (tag: string, name: string) => {
  const value = new RegExp(`\\b${name}="([^"]*)"`).exec(tag)?.[1];
  return value === undefined ? undefined : unescapeXml(value);
};

/** Places one call from `callerNumber` to our number; `keys` is what the caller types when asked. */
export async function placeCall(
  callbackUrl: string,
  call: { callerNumber: string; destinationNumber: string; keys?: string },
): Promise<CallOutcome> {
  const sessionId = `ATVId_${randomUUID().replace(/-/g, '')}`;
  const out: CallOutcome = { statuses: [], said: [], askedForDigits: false };
  const post = async (url: string, extra: Record<string, string>) => {
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        isActive: '1',
        sessionId,
        direction: 'Inbound',
        callerNumber: call.callerNumber,
        destinationNumber: call.destinationNumber,
        ...extra,
      }),
    });
    out.statuses.push(res.status);
    return res.ok ? await res.text() : '';
  };
  const heard = (xml: string) => {
    for (const [, text] of xml.matchAll(/<Say>([^<]*)<\/Say>/g)) out.said.push(unescapeXml(text!));
  };
  let xml = await post(callbackUrl, {});
  for (let step = 0; step < 3; step++) {
    const ask = /<GetDigits\b([^>]*)>([\s\S]*?)<\/GetDigits>/.exec(xml);
    if (!ask) {
      heard(xml);
      const dial = /<Dial\b[^>]*\/>/.exec(xml)?.[0];
      if (dial)
        out.dialled = {
          phoneNumbers: attr(dial, 'phoneNumbers')!,
          callerId: attr(dial, 'callerId'),
        };
      break;
    }
    out.askedForDigits = true;
    heard(ask[2]!);
    if (call.keys === undefined) {
      // Nothing typed: the prompt times out and the actions after it run.
      heard(xml.slice(ask.index + ask[0].length));
      break;
    }
    xml = await post(attr(ask[1]!, 'callbackUrl') ?? callbackUrl, { dtmfDigits: call.keys });
  }
  await post(callbackUrl, { isActive: '0', durationInSeconds: '12' });
  return out;
}
