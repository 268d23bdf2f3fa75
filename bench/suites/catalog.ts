import type { SuiteOptions } from '../lib/options.ts';
export async function runCatalog(_opts: SuiteOptions): Promise<number> {
  return 0;
}
