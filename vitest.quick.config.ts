import { readdirSync, readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { dirname, join, normalize } from 'node:path';
import { defineConfig } from 'vitest/config';

// `npm run test:quick`: the unit and wire tests for the edit-test loop. A test file is left out when it
// needs the build or drives something outside the process — the built CLI, a terminal under tmux, a
// browser, a language server, an MCP server, the TypeScript compiler, an installed suite — which is
// where the suite's minutes go. Decided from each file's imports and calls, so a new test file lands on
// the right side without a list to keep.
const slow = /\bdist\/|'\.\.\/dist'|ts-fixture|mcp-servers|mcp-http-server|lsp-servers|from 'typescript'|cli-process|chat-cli|tui-session|tmux|chromium|playwright|child_process|doctor-model|eval-model|reference-servers|swapper|virtual-terminal|image-check|mcp-conformance|typescript-language-server|install-conformance/;

// A support module that runs the built CLI or a terminal taints every test that reaches it through
// relative imports, however deep: such a test needs `npm run build` first and fails on a stale build.
const spawns = /'dist', 'cli'|\bdist\/cli\b|'\.\.\/dist'|\btmux\b/;

// Also left out: the few in-process files that each run one long scenario (a property over many
// rounds, every wire for 20 rounds, megabytes of input), a third of the subset's time for 11 of its
// 126 files; the wires and the core stay covered by the files that remain, and the whole suite runs them.
const long = new Set([
  'subagent-context-isolation-property.test.ts',
  'tool-search-wires.test.ts',
  'context-session.test.ts',
  'hostile-large-text.test.ts',
  'tool-search-native.test.ts',
  'subagent-slots.test.ts',
  'checkpoints-reuse.test.ts',
  'subagent-compaction.test.ts',
  'context-prefix.test.ts',
  'hostile-peer-budget.test.ts',
  'eval-suite-snapshot.test.ts',
]);

const relativeImport = /(?:from|import)\s*\(?\s*'(\.{1,2}\/[^']+)'/g;

function reachesSpawner(file: string, seen = new Set<string>()): boolean {
  if (seen.has(file)) return false;
  seen.add(file);
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return false;
  }
  if (spawns.test(text)) return true;
  for (const [, spec] of text.matchAll(relativeImport)) {
    if (!spec.startsWith('./') && !spec.includes('/support/')) continue; // only the tests' own helpers
    const target = normalize(join(dirname(file), spec.replace(/\.js$/, '.ts')));
    if (reachesSpawner(target, seen)) return true;
  }
  return false;
}

const quick = readdirSync('test')
  .filter((name) => name.endsWith('.test.ts') && !long.has(name))
  .filter((name) => !slow.test(readFileSync(`test/${name}`, 'utf8')))
  .filter((name) => !reachesSpawner(`test/${name}`))
  .map((name) => `test/${name}`);

export default defineConfig({
  test: {
    include: quick,
    setupFiles: ['test/support/isolated-cache.ts', 'test/support/zod-loaded.ts'],
    testTimeout: 20_000,
    hookTimeout: 20_000,
    // Vitest's default is one worker fewer than the cores: a single worker on a 2-core laptop.
    maxWorkers: Math.max(availableParallelism(), 2),
  },
});
