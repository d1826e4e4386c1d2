import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // The price cache and other rebuildable files go to a temporary folder, not the user's ~/.cache.
    setupFiles: ['test/support/isolated-cache.ts', 'test/support/zod-loaded.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
