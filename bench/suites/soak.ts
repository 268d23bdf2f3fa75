import type { SuiteOptions } from '../lib/options.ts';
export async function runSoak(_opts: SuiteOptions): Promise<number> {
  return 0;
}
