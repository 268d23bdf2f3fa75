import { describe, expect, it } from 'vitest';
import { type CpuProfile, topSelfFrames } from './self-time.ts';

const frame = (functionName: string, url = '', lineNumber = 0) => ({
  functionName,
  url,
  lineNumber,
});

/** Root → idle; root → handler → serialize; root → gc. */
const PROFILE: CpuProfile = {
  nodes: [
    { id: 1, callFrame: frame('(root)') },
    { id: 2, callFrame: frame('(idle)') },
    { id: 3, callFrame: frame('handler', 'file:///work/app/src/modules/delivery/x.ts', 9) },
    {
      id: 4,
      callFrame: frame('serialize', 'file:///work/app/node_modules/fast-json-stringify/i.js', 0),
    },
    { id: 5, callFrame: frame('(garbage collector)') },
    { id: 6, callFrame: frame('', 'node:internal/http', 4) },
  ],
  samples: [2, 3, 4, 4, 2, 5, 3, 6, 4],
  timeDeltas: [5000, 1000, 1000, 1000, 5000, 500, 1000, 250, 1000],
};

describe('topSelfFrames', () => {
  it('ranks frames by self time over busy time, idle left out, the same frame summed', () => {
    const { busyMs, frames } = topSelfFrames(PROFILE);
    expect(busyMs).toBe(5.75);
    expect(frames).toEqual([
      { frame: 'serialize node_modules/fast-json-stringify/i.js:1', selfMs: 3, share: 3 / 5.75 },
      { frame: 'handler src/modules/delivery/x.ts:10', selfMs: 2, share: 2 / 5.75 },
      { frame: '(garbage collector)', selfMs: 0.5, share: 0.5 / 5.75 },
      { frame: '(anonymous) node:internal/http:5', selfMs: 0.25, share: 0.25 / 5.75 },
    ]);
  });

  it('keeps only the top n', () => {
    expect(topSelfFrames(PROFILE, 1).frames.map((f) => f.frame)).toEqual([
      'serialize node_modules/fast-json-stringify/i.js:1',
    ]);
  });

  it('answers nothing for a profile with only idle samples', () => {
    expect(topSelfFrames({ ...PROFILE, samples: [2, 2], timeDeltas: [10, 10] })).toEqual({
      busyMs: 0,
      frames: [],
    });
  });
});
