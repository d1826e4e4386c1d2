import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { codeNavWorkspaces } from './support/code-nav-workspace.js';

// The library's code_nav against this repository's typescript-language-server, on a plain JavaScript
// repository: no tsconfig.json or jsconfig.json, so tsserver infers the project from open files.
const FIXTURE = join(import.meta.dirname, 'fixtures', 'lsp', 'plain-js');
const workspaces = codeNavWorkspaces();
afterAll(() => workspaces.close());
const navIn = (extra?: Record<string, string>) => workspaces.navIn(FIXTURE, extra);

describe('code_nav in a plain JavaScript repository (no jsconfig)', () => {
  it('finds every reference across files, says the project was inferred, and never takes a name in a comment or a string', { timeout: 300_000 }, async () => {
    const ask = await navIn();
    // math.js names sum in a comment and a string before it declares it.
    const references = await ask({ operation: 'references', path: 'math.js', symbol: 'sum' });
    expect(references).toContain('No tsconfig.json or jsconfig.json includes math.js, so the server inferred a project from open files: the 3 workspace files that mention "sum" were opened into it.');
    expect(references).toContain('"sum" taken at 5:17, where it is declared (function)');
    expect(references).toContain('3 reference(s) to sum (the declaration included):\napp.js:1:10: import { sum } from \'./math.js\';\napp.js:3:20: console.log(\'sum\', sum(1, 2));\nmath.js:5:17: export function sum(a, b) {');
    expect(references).not.toContain('notes.js');

    const hover = await ask({ operation: 'hover', path: 'math.js', symbol: 'sum' });
    expect(hover).toContain('function sum(a: any, b: any): any');
    expect(hover).toContain('Adds two numbers.');

    // On app.js's line 3 the string 'sum' comes first; the call is the one the server resolves.
    const definition = await ask({ operation: 'definition', path: 'app.js', symbol: 'sum', line: 3 });
    expect(definition).toContain('"sum" taken at 3:20, past 1 the server does not resolve (in comments or strings)');
    expect(definition).toContain('1 definition(s) of sum:\nmath.js:5:17: export function sum(a, b) {');
  });

  it('with a jsconfig.json the project is configured: the same references, no note', { timeout: 300_000 }, async () => {
    const ask = await navIn({ 'jsconfig.json': JSON.stringify({ compilerOptions: { module: 'ESNext', target: 'ES2022' } }) });
    const references = await ask({ operation: 'references', path: 'math.js', symbol: 'sum', line: 5 });
    expect(references).toMatch(/^3 reference\(s\) to sum \(the declaration included\):\napp\.js:1:10: /);
    expect(references).not.toContain('inferred');
  });
});
