/**
 * What an inbound text asks: to stop every message to the number, or to start them again. Carriers'
 * and aggregators' usual words (as Twilio and the CTIA list them): STOP, STOP ALL, STOPALL,
 * UNSUBSCRIBE, CANCEL, END, QUIT, OPTOUT; START, UNSTOP, YES opt back in. Case, spaces and
 * punctuation around the word do not matter; any other text is not a keyword (a reply to a
 * delivery text is not an opt-out).
 */
export type Keyword = 'stop' | 'start';

const STOP = new Set(['STOP', 'STOPALL', 'UNSUBSCRIBE', 'CANCEL', 'END', 'QUIT', 'OPTOUT']);
const START = new Set(['START', 'UNSTOP', 'YES']);

export function keywordOf(text: string): Keyword | undefined {
  const word = text
    .normalize('NFKC')
    .toUpperCase()
    .replace(/[^A-Z]/g, '');
  if (STOP.has(word)) return 'stop';
  if (START.has(word)) return 'start';
  return undefined;
}
