import { describe, expect, it } from 'vitest';
import { orderClocks } from '../../../src/flows/orders-live-on-test-clocks.ts';
import { as } from '../faces.ts';

describe("delivery's order clocks ask the test clocks", () => {
  const owner = { appId: 'app_1', environment: 'staging' as const };

  it('finds no clock before the test clocks exist, then answers their time', async () => {
    const ctx: { testClocks: unknown } = { testClocks: undefined };
    const clocks = orderClocks(as(ctx));
    await expect(clocks.timeOf(owner, 'clk_1')).rejects.toMatchObject({
      statusCode: 404,
      code: 'TEST_CLOCK_NOT_FOUND',
    });
    ctx.testClocks = { timeOf: async (_o: unknown, id: string) => (id === 'clk_1' ? 42 : 0) };
    expect(await clocks.timeOf(owner, 'clk_1')).toBe(42);
  });
});
