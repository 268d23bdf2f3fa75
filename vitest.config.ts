import { defineConfig } from 'vitest/config';

// Workspace packages (protocol, SDK) resolve to their TypeScript sources through this export
// condition ahead of Vite's default server conditions, so the tests run what is in the tree,
// never a stale build.
const SOURCE = '@partner-platform/source';

export default defineConfig({
  ssr: { resolve: { conditions: [SOURCE, 'module', 'node', 'development|production'] } },
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts', 'packages/*/test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    globalSetup: ['test/global-setup.ts'],
  },
});
