import { defineConfig, type TestProjectInlineConfiguration } from 'vitest/config';

// Workspace packages (protocol, SDK) resolve to their TypeScript sources through this export
// condition ahead of Vite's default server conditions, so the tests run what is in the tree,
// never a stale build.
const SOURCE = '@partner-platform/source';

/**
 * The tiers (docs/testing.md), each found by folder so that a file added to one is in it. Unit
 * tests sit beside the source; the others under `test/<area>/<tier>/`, where
 * `scripts/tier-tests.mjs` puts them. `npm test` runs the four; `npm run test:<tier>` one.
 */
function tier(name: string, include: string[], test: TestProjectInlineConfiguration['test'] = {}): TestProjectInlineConfiguration {
  return { extends: true, test: { name, include, ...test } };
}

// The tiers that open a database or start the app: dist/ rebuilt when stale and one migrated
// embedded database dumped for each test's copy. The unit tier goes without.
const services = { globalSetup: ['test/global-setup.ts'] };

export default defineConfig({
  ssr: { resolve: { conditions: [SOURCE, 'module', 'node', 'development|production'] } },
  test: {
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    projects: [
      tier('unit', ['src/**/*.test.ts', 'packages/*/test/**/*.test.ts', 'test/*/unit/**/*.test.ts']),
      tier('module', ['test/*/module/**/*.test.ts'], services),
      // A test file not yet sorted into a tier (test/<area>/*.test.ts) runs here, and the tiers'
      // own test names it until `node scripts/tier-tests.mjs` has moved it.
      tier('contract', ['test/*/contract/**/*.test.ts', 'test/*/*.test.ts'], services),
      tier('journey', ['test/*/journey/**/*.test.ts'], services),
    ],
  },
});
