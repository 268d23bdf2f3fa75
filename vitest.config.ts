import { availableParallelism } from 'node:os';
import { defineConfig, type TestProjectInlineConfiguration } from 'vitest/config';

// Workspace packages (protocol, SDK) resolve to their TypeScript sources through this export
// condition ahead of Vite's default server conditions, so the tests run what is in the tree,
// never a stale build.
const SOURCE = '@partner-platform/source';

/**
 * The tiers (test/README.md), each found by folder so that a file added to one is in it. Unit
 * tests sit beside the source; the others under `test/<area>/<tier>/`, where
 * `scripts/tier-tests.mjs` puts them. `npm test` runs the four one after the other, fastest
 * first (`groupOrder`), each with its own number of workers; `npm run test:<tier>` runs one.
 */
function tier(name: string, order: number, include: string[], test: TestProjectInlineConfiguration['test'] = {}): TestProjectInlineConfiguration {
  return { extends: true, test: { name, include, sequence: { groupOrder: order }, ...test } };
}

// Workers per tier, as a multiple of the machine's cores (TEST_WORKERS scales them, e.g. 0.5 when
// other runs share the machine). Pure tests use every core. A contract test waits on its server
// about half of its time, so that tier runs a file per core; so does the journey tier, whose files
// mostly wait on their browser, compiled servers and simulated clocks (39 files: 205 s with two
// workers on two cores, about 290 s with one; two passes side by side with two journey files each
// took 150-180 s longer than with one each: their servers and browsers then fight for the cores).
// A module test's fresh database fills a core, so that tier leaves one core free (vitest's own
// default).
const cores = availableParallelism();
const share = Number(process.env.TEST_WORKERS) || 1;
const workers = (perCore: number) => Math.max(1, Math.round(cores * perCore * share));

// The tiers that open a database or start the app: dist/ rebuilt when stale and one migrated
// embedded database dumped for each test's copy. The unit tier goes without.
const services = { globalSetup: ['test/global-setup.ts'] };

export default defineConfig({
  ssr: { resolve: { conditions: [SOURCE, 'module', 'node', 'development|production'] } },
  test: {
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // A loaded machine (two CI passes side by side) can take seconds to do what takes
    // milliseconds alone; a poll that fails waits this long first, one that passes returns at once.
    expect: { poll: { timeout: 10_000 } },
    projects: [
      // Pure code: one module graph per worker serves every file (no state outlives a test).
      tier('unit', 0, ['src/**/*.test.ts', 'bench/**/*.test.ts', 'packages/*/test/**/*.test.ts', 'test/*/unit/**/*.test.ts'], { isolate: false, maxWorkers: workers(1) }),
      // Module and journey files reuse one module graph per worker as well: they mock nothing and
      // close what they open, and loading the app's graph again cost each file about 2 s of CPU.
      tier('module', 1, ['test/*/module/**/*.test.ts'], { ...services, isolate: false, maxWorkers: workers(0.5) }),
      // A test file not yet sorted into a tier (test/<area>/*.test.ts) runs here, and the tiers'
      // own test names it until `node scripts/tier-tests.mjs` has moved it.
      // One module graph per worker too: each file builds and closes its own apps (test/README.md).
      tier('contract', 2, ['test/*/contract/**/*.test.ts', 'test/*/*.test.ts'], { ...services, isolate: false, maxWorkers: workers(1) }),
      tier('journey', 3, ['test/*/journey/**/*.test.ts'], { ...services, isolate: false, maxWorkers: workers(1) }),
    ],
  },
});
