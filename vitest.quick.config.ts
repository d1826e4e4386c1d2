import { readdirSync, readFileSync } from 'node:fs';
import { defineConfig } from 'vitest/config';

// `npm run test:quick`: the unit and wire tests for the edit-test loop. A test file is left out when it
// needs the build or drives something outside the process — the built CLI, a terminal under tmux, a
// browser, a language server, an MCP server, the TypeScript compiler, an installed suite — which is
// where the suite's minutes go. Decided from each file's imports and calls, so a new test file lands on
// the right side without a list to keep.
const slow = /\bdist\/|'\.\.\/dist'|ts-fixture|mcp-servers|mcp-http-server|lsp-servers|from 'typescript'|cli-process|chat-cli|tui-session|tmux|chromium|playwright|child_process|doctor-model|eval-model|reference-servers|swapper|virtual-terminal|image-check|mcp-conformance|typescript-language-server|install-conformance/;

const quick = readdirSync('test')
  .filter((name) => name.endsWith('.test.ts'))
  .filter((name) => !slow.test(readFileSync(`test/${name}`, 'utf8')))
  .map((name) => `test/${name}`);

export default defineConfig({
  test: {
    include: quick,
    testTimeout: 20_000,
    hookTimeout: 20_000,
  },
});
