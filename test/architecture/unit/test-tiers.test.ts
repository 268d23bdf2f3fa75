import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../../helpers/process.ts';

/**
 * Every test file sits in the tier its code belongs to (test/README.md), so that `npm run
 * test:unit` stays free of databases and servers and each tier's folder says what its tests do.
 * scripts/tier-tests.mjs reads each file and moves those out of place; this test fails while any is.
 */
const script: { plan(): Map<string, string>; tierOf(file: string): string } = await import(
  pathToFileURL(join(ROOT, 'scripts', 'tier-tests.mjs')).href
);

describe('test tiers', () => {
  it('has every test file in its tier (run `node scripts/tier-tests.mjs` to move the others)', () => {
    expect([...script.plan()].map(([from, to]) => `${from} → ${to}`)).toEqual([]);
  });

  it('reads a test file’s tier from what it does', () => {
    expect(script.tierOf('src/platform/money.test.ts')).toBe('unit');
    expect(script.tierOf('test/payouts/journey/kill.test.ts')).toBe('journey');
    expect(script.tierOf('test/web/journey/console.browser.test.ts')).toBe('journey');
    expect(script.tierOf('test/couriers/module/couriers-service.test.ts')).toBe('module');
    expect(script.tierOf('test/payouts/contract/payouts.test.ts')).toBe('contract');
  });
});
