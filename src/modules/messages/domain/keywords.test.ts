import { describe, expect, it } from 'vitest';
import { keywordOf } from './keywords.ts';

describe('inbound keywords', () => {
  it.each(['STOP', 'stop', ' Stop. ', 'STOP ALL', 'stop all', 'UNSUBSCRIBE', 'Cancel', 'opt-out'])(
    '%j stops',
    (text) => expect(keywordOf(text)).toBe('stop'),
  );
  it.each(['START', 'start', 'Unstop', 'yes!'])('%j starts again', (text) =>
    expect(keywordOf(text)).toBe('start'),
  );
  it.each(['', 'please stop calling me at night', 'STOPPED', 'Thanks', 'hello stop'])(
    '%j is no keyword',
    (text) => expect(keywordOf(text)).toBeUndefined(),
  );
});
