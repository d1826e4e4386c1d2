import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { codeNavWorkspaces } from './support/code-nav-workspace.js';

// A plain JavaScript repository in CommonJS (require, module.exports, exports.x) with no jsconfig:
// tsserver alone stops at the export line, so code_nav follows the requires (src/lsp/commonjs-references.ts).
const FIXTURE = join(import.meta.dirname, 'fixtures', 'lsp', 'plain-cjs');
const workspaces = codeNavWorkspaces();
afterAll(() => workspaces.close());

/** A built copy that requires the source, as a bundle's would: a reference only if dist/ is not ignored. */
const BUILT = { 'dist/app.js': "const { sum } = require('../math');\nconsole.log(sum(2, 3));\n" };

const SUM_REFERENCES = [
  '4 reference(s) to sum (the declaration included):',
  "app.js:1:9: const { sum } = require('./math');",
  "app.js:3:20: console.log('sum', sum(1, 2));",
  'math.js:5:10: function sum(a, b) {',
  'math.js:9:20: module.exports = { sum, label };',
].join('\n');

describe('code_nav references in a CommonJS repository (no jsconfig)', () => {
  it('follows module.exports and exports.x to their require() calls, from either side, never into a comment or a string', { timeout: 300_000 }, async () => {
    const ask = await workspaces.navIn(FIXTURE);
    const fromModule = await ask({ operation: 'references', path: 'math.js', symbol: 'sum' });
    expect(fromModule).toContain('the 3 workspace files that mention "sum" were opened into it.');
    expect(fromModule).toContain('The server does not follow CommonJS exports to their require() calls: 2 of these places were added by asking it where each "sum" in the 3 files that mention it is defined.');
    expect(fromModule).toContain(SUM_REFERENCES);
    expect(fromModule).not.toContain('notes.js');

    // From the require side the server finds them all itself: nothing added, no note.
    const fromRequire = await ask({ operation: 'references', path: 'app.js', symbol: 'sum', line: 3 });
    expect(fromRequire).toContain(SUM_REFERENCES);
    expect(fromRequire).not.toContain('does not follow CommonJS');

    const fromExport = await ask({ operation: 'references', path: 'stats.js', symbol: 'mean' });
    expect(fromExport).toContain('1 of these places was added');
    expect(fromExport).toContain(
      ['3 reference(s) to mean (the declaration included):', "report.js:1:9: const { mean } = require('./stats');", 'report.js:3:13: console.log(mean([1, 2, 3]));', 'stats.js:2:9: exports.mean = function (values) {'].join('\n'),
    );
  });

  it('leaves out what .gitignore excludes (a built dist/), and counts it when nothing ignores it', { timeout: 400_000 }, async () => {
    const ignored = await workspaces.navIn(FIXTURE, { ...BUILT, '.gitignore': 'dist/\n' });
    const references = await ignored({ operation: 'references', path: 'math.js', symbol: 'sum' });
    expect(references).toContain('the 3 workspace files that mention "sum" were opened into it.');
    expect(references).toContain(SUM_REFERENCES);
    expect(references).not.toContain('dist/');

    const kept = await workspaces.navIn(FIXTURE, BUILT);
    const counted = await kept({ operation: 'references', path: 'math.js', symbol: 'sum' });
    expect(counted).toContain('the 4 workspace files that mention "sum" were opened into it.');
    expect(counted).toContain("6 reference(s) to sum (the declaration included):\napp.js:1:9: const { sum } = require('./math');\napp.js:3:20: console.log('sum', sum(1, 2));\ndist/app.js:1:9: const { sum } = require('../math');\ndist/app.js:2:13: console.log(sum(2, 3));");
  });
});
