import { describe, expect, it } from 'vitest';
import { describeFloorCheck, floorFigures } from './floor-check.ts';

describe('the signed health floor check', () => {
  it('compares the mean of the floor runs with the mean of the no-op runs, in rate and CPU', () => {
    const c = floorFigures(
      [
        { rps: 24_000, cpuUs: 24 },
        { rps: 22_000, cpuUs: 26 },
        { rps: 23_000, cpuUs: 25 },
      ],
      [
        { rps: 16_000, cpuUs: 48 },
        { rps: 17_000, cpuUs: 52 },
      ],
    );
    expect(c).toEqual({
      noopRps: 23_000,
      floorRps: 16_500,
      ratio: 0.72,
      noopCpuUs: 25,
      floorCpuUs: 50,
      cpuRatio: 0.5,
    });
    expect(describeFloorCheck(c)).toContain(
      'bare no-op 23000 req/s, floor 16500 req/s, ratio 0.72; server CPU 25 → 50 µs/req (CPU ratio 0.5)',
    );
  });

  it('leaves the CPU out when a run could not read it', () => {
    const c = floorFigures([{ rps: 20_000, cpuUs: undefined }], [{ rps: 15_000, cpuUs: 40 }]);
    expect(c).toMatchObject({ ratio: 0.75, noopCpuUs: null, floorCpuUs: null, cpuRatio: null });
    expect(describeFloorCheck(c)).not.toContain('server CPU');
  });
});
