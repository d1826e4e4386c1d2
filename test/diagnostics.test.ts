import { existsSync } from 'node:fs';
import { mkdtemp, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createDiagnosticsObserver, type DiagnosticsSetting } from '../src/diagnostics/diagnostics-observer.js';
import { createPermissionPolicy } from '../src/permissions/permission-policy.js';
import type { ApprovalRequest } from '../src/tools/approval.js';
import type { Authorize } from '../src/contracts/tool.js';
import { createFileTools } from '../src/tools/coding/file-tools.js';
import { ToolRegistry } from '../src/tools/registry.js';
import { makeTsProject } from './support/ts-fixture.js';

vi.setConfig({ testTimeout: 240_000 });

const OLD_ERROR = "export const a: number = 'x';\n";
const dirs: string[] = [];
let callId = 0;

afterEach(async () => {
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

async function project(files: Record<string, string>): Promise<string> {
  const ws = await makeTsProject(files);
  dirs.push(ws);
  return ws;
}

// Generous: a cold tsc takes seconds on these loaded machines; only the hanging-checker test relies on a limit.
function tools(setting: DiagnosticsSetting = 'auto', timeoutMs = 120_000): ToolRegistry {
  const observeWrite = createDiagnosticsObserver({ setting, timeoutMs });
  return new ToolRegistry(createFileTools(observeWrite ? { observeWrite } : {}));
}

async function call(registry: ToolRegistry, ws: string, name: string, args: object, authorize?: Authorize) {
  return registry.invoke({ id: `c${++callId}`, name, arguments: JSON.stringify(args) }, { workspace: ws, ...(authorize ? { authorize } : {}) });
}

async function edit(registry: ToolRegistry, ws: string, path: string, oldString: string, newString: string, authorize?: Authorize) {
  const result = await call(registry, ws, 'edit_file', { path, old_string: oldString, new_string: newString }, authorize);
  expect(result.status).toBe('ok');
  return result.content;
}

describe('diagnostics after edits (TypeScript, the project\'s own tsc)', () => {
  it('reports exactly the one error an edit adds, not the one already there', async () => {
    const ws = await project({ 'src/a.ts': `${OLD_ERROR}export const b = 1;\n` });
    const registry = tools();
    await call(registry, ws, 'read_file', { path: 'src/a.ts' });
    const output = await edit(registry, ws, 'src/a.ts', 'export const b = 1;', 'export const b: string = 1;');
    expect(output).toContain('tsc: this edit introduced 1 problem:');
    expect(output).toMatch(/src\/a\.ts:2:14 error TS2322: Type 'number' is not assignable to type 'string'\./);
    expect(output).not.toContain('src/a.ts:1:');
    expect(output).not.toContain('fixed');
    expect(await readFile(join(ws, 'src/a.ts'), 'utf8')).toContain('export const b: string = 1;');
  });

  it('reports the old error as fixed, and says nothing when lines inserted above only move it', async () => {
    const ws = await project({ 'src/a.ts': `${OLD_ERROR}export const b = 1;\n` });
    const registry = tools();
    await call(registry, ws, 'read_file', { path: 'src/a.ts' });
    const moved = await edit(registry, ws, 'src/a.ts', OLD_ERROR, `// one\n// two\n// three\n${OLD_ERROR}`);
    expect(moved).not.toMatch(/introduced|fixed/);
    const fixed = await edit(registry, ws, 'src/a.ts', "export const a: number = 'x';", 'export const a: number = 2;');
    expect(fixed).toContain('tsc: this edit fixed 1 problem:');
    expect(fixed).toMatch(/src\/a\.ts:4:14 error TS2322/);
    expect(fixed).not.toContain('introduced');
  });

  it('sees errors the edit causes in another file, and keeps write_file working the same way', async () => {
    const ws = await project({ 'src/lib.ts': 'export function twice(n: number): number {\n  return n * 2;\n}\n', 'src/use.ts': "import { twice } from './lib.js';\nexport const four = twice(2);\n" });
    const registry = tools();
    await call(registry, ws, 'read_file', { path: 'src/lib.ts' });
    const output = (await call(registry, ws, 'write_file', { path: 'src/lib.ts', content: 'export function twice(n: string): string {\n  return n + n;\n}\n' })).content;
    expect(output).toContain('Overwrote src/lib.ts');
    expect(output).toContain('tsc: this edit introduced 1 problem:');
    expect(output).toMatch(/src\/use\.ts:2:\d+ error TS2345/);
  });
});

describe('the first edit\'s baseline is taken after the write, from the old text', () => {
  it('a new file: checked as absent first, so the import it satisfies counts as fixed and its own error as introduced', async () => {
    const ws = await project({ 'src/use.ts': "import { twice } from './lib.js';\nexport const four: number = twice(2);\n" });
    const registry = tools();
    const output = (await call(registry, ws, 'write_file', { path: 'src/lib.ts', content: "export function twice(n: number): string {\n  return n * 2;\n}\n" })).content;
    expect(output).toContain('tsc: this edit introduced 2 problems:');
    expect(output).toMatch(/src\/lib\.ts:2:3 error TS2322/);
    expect(output).toMatch(/src\/use\.ts:2:14 error TS2322/);
    expect(output).toContain('tsc: this edit fixed 1 problem:');
    expect(output).toMatch(/src\/use\.ts:1:\d+ error TS2307: Cannot find module '\.\/lib\.js'/);
  });
});

describe('when there is no checker, or it misbehaves', () => {
  it('adds nothing without a checker: no process, no mention', async () => {
    const ws = await realpath(await mkdtemp(join(tmpdir(), 'vibe-diag-none-')));
    dirs.push(ws);
    await writeFile(join(ws, 'a.ts'), OLD_ERROR);
    const registry = tools();
    await call(registry, ws, 'read_file', { path: 'a.ts' });
    const output = await edit(registry, ws, 'a.ts', "'x'", '1');
    expect(output).not.toMatch(/tsc|diagnostics|problem/i);
    expect(existsSync(join(ws, 'node_modules'))).toBe(false);
  });

  it('stops a checker that hangs at its time limit and says so; the edit is written', async () => {
    const ws = await project({ 'src/a.ts': OLD_ERROR });
    const marker = join(ws, 'started');
    // The limit covers starting the shell that writes the marker, which takes more than 1 s at load 20.
    const registry = tools({ command: `touch ${marker}; exec sleep 600`, timeout: 3 });
    await call(registry, ws, 'read_file', { path: 'src/a.ts' });
    const output = (await call(registry, ws, 'write_file', { path: 'src/a.ts', content: 'export const a = 1;\n' })).content;
    expect(existsSync(marker)).toBe(true);
    expect(output).toContain('Overwrote src/a.ts');
    expect(output).toContain('diagnostics did not finish within 3 s and was stopped');
    expect(await readFile(join(ws, 'src/a.ts'), 'utf8')).toBe('export const a = 1;\n');
  });

  it('reads a configured command\'s file:line:col output and diffs it', async () => {
    const ws = await project({ 'src/a.ts': 'ok\n' });
    // A stand-in checker: every line containing BAD is an error at that line.
    const command = `grep -n BAD src/a.ts | sed 's/^\\([0-9]*\\):.*/src\\/a.ts:\\1:1: error: BAD found/'`;
    const registry = tools({ command });
    await call(registry, ws, 'read_file', { path: 'src/a.ts' });
    // A command cannot check the old text, so its first run lists the edited file's problems as such.
    const first = await edit(registry, ws, 'src/a.ts', 'ok\n', 'ok\nBAD\n');
    expect(first).toContain('diagnostics: first check (no earlier run to compare with), so these are all 1 problem in src/a.ts, not only what this edit did:\n  src/a.ts:2:1 error: BAD found');
    const second = await edit(registry, ws, 'src/a.ts', 'ok\n', 'ok\nfine\nBAD\n');
    expect(second).toContain('diagnostics: this edit introduced 1 problem:\n  src/a.ts:4:1 error: BAD found\n(2 problems reported in all.)');
    expect(second).not.toContain('first check');
  });

  it('writes the file first: the checker starts after the bytes are on disk and the edit does not wait for it before writing', async () => {
    const ws = await project({ 'src/a.ts': 'ok\n' });
    const started = join(ws, 'checker-started');
    const release = join(ws, 'checker-release');
    // The checker records what it saw on disk when it started, then blocks until the test releases it.
    const command = `cat src/a.ts > ${started}; while [ ! -f ${release} ]; do sleep 0.05; done; grep -n BAD src/a.ts | sed 's/^\\([0-9]*\\):.*/src\\/a.ts:\\1:1: error: BAD found/'`;
    const registry = tools({ command });
    await call(registry, ws, 'read_file', { path: 'src/a.ts' });
    let settled = false;
    const pending = edit(registry, ws, 'src/a.ts', 'ok\n', 'ok\nBAD\n').finally(() => (settled = true));
    while (!existsSync(started) || (await readFile(started, 'utf8')) === '') await new Promise((resolve) => setTimeout(resolve, 20));
    expect(await readFile(started, 'utf8')).toBe('ok\nBAD\n');
    expect(await readFile(join(ws, 'src/a.ts'), 'utf8')).toBe('ok\nBAD\n');
    expect(settled).toBe(false);
    await writeFile(release, '');
    expect(await pending).toContain('src/a.ts:2:1 error: BAD found');
  });
});

describe('the checker runs the repository\'s code, so it is put to the permission policy', () => {
  it('in ask mode, a "no" keeps the checker from running, asked once per command', async () => {
    const ws = await project({ 'src/a.ts': OLD_ERROR });
    const marker = join(ws, 'ran');
    const registry = tools({ command: `touch ${marker}` });
    const asked: ApprovalRequest[] = [];
    const authorize = createPermissionPolicy({ mode: 'ask', ask: async (request) => (asked.push(request), request.tool === 'diagnostics' ? 'no' : 'yes') });
    await call(registry, ws, 'read_file', { path: 'src/a.ts' });
    const first = await edit(registry, ws, 'src/a.ts', "'x'", '1', authorize);
    const second = await edit(registry, ws, 'src/a.ts', '= 1', '= 2', authorize);
    expect(existsSync(marker)).toBe(false);
    expect(asked.filter((request) => request.tool === 'diagnostics').map((request) => request.summary)).toEqual([`diagnostics: touch ${marker}`]);
    expect(first).toContain('diagnostics was not run');
    expect(second).not.toContain('diagnostics');
    expect(await readFile(join(ws, 'src/a.ts'), 'utf8')).toBe('export const a: number = 2;\n');
  });

  it('in ask mode without a terminal (nobody to ask) it does not run; in yolo mode it runs', async () => {
    const ws = await project({ 'src/a.ts': OLD_ERROR });
    const marker = join(ws, 'ran');
    const registry = tools({ command: `touch ${marker}` });
    await call(registry, ws, 'read_file', { path: 'src/a.ts' });
    const denied = await edit(registry, ws, 'src/a.ts', "'x'", '1', createPermissionPolicy({ mode: 'ask', allow: ['edit_file'] }));
    expect(denied).toContain('diagnostics was not run');
    expect(existsSync(marker)).toBe(false);
    const yolo = tools({ command: `touch ${marker}` });
    await call(yolo, ws, 'read_file', { path: 'src/a.ts' });
    await edit(yolo, ws, 'src/a.ts', '= 1', '= 2', createPermissionPolicy({ mode: 'yolo' }));
    expect(existsSync(marker)).toBe(true);
  });

  it("the checker gets the shell's environment (no provider key, no --api-key value) and the shell's sandbox", async () => {
    const ws = await project({ 'src/a.ts': OLD_ERROR });
    const env = { ...process.env, OPENAI_API_KEY: 'sk-provider-secret', DEPLOY: 'cli-key-value', HARMLESS: 'kept' };
    // A stand-in for bubblewrap: whatever the sandbox's wrap returns is what runs.
    const sandbox = { name: 'marker', wrap: (argv: string[]) => ['/usr/bin/env', 'WRAPPED_BY_SANDBOX=yes', ...argv], explainFailure: () => undefined };
    const observeWrite = createDiagnosticsObserver({ setting: { command: 'env > seen-env.txt' }, env, secrets: ['cli-key-value'], sandbox })!;
    const registry = new ToolRegistry(createFileTools({ observeWrite }));
    await call(registry, ws, 'read_file', { path: 'src/a.ts' });
    await edit(registry, ws, 'src/a.ts', "'x'", '1', createPermissionPolicy({ mode: 'yolo' }));
    const seen = await readFile(join(ws, 'seen-env.txt'), 'utf8');
    expect(seen).toContain('HARMLESS=kept');
    expect(seen).toContain('WRAPPED_BY_SANDBOX=yes');
    expect(seen).not.toContain('sk-provider-secret');
    expect(seen).not.toContain('cli-key-value');
  });
});
