/**
 * Carrying out an approved plan: the permission layer reads the plan's Files: and Commands: lists
 * and asks again (denies without a terminal) for a write or command the plan does not name.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readApprovedPlan } from '../src/cli/prompt/approved-plan.js';
import { createPermissionPolicy } from '../src/permissions/permission-policy.js';
import { parsePlanScope, planDeviation } from '../src/permissions/plan-scope.js';
import type { ApprovalRequest } from '../src/tools/approval.js';
import { createFileTools } from '../src/tools/coding/file-tools.js';
import { bashTool } from '../src/tools/coding/shell/bash.js';
import { defineTool } from '../src/tools/define-tool.js';
import { ToolRegistry } from '../src/tools/registry.js';

const PLAN = [
  'Plan: add a --verbose flag.',
  '',
  '1. Parse the flag.',
  '2. Test it.',
  '',
  '## Files',
  '- `src/cli/args.ts`: parse --verbose',
  '- test/args.test.ts — a new case',
  '- docs/',
  '',
  '**Commands:**',
  '- `npm test*`',
  '- git status',
  '',
  'That is all.',
].join('\n');

const ran: string[] = [];
const bash = defineTool({ name: 'bash', description: 'shell', parameters: z.object({ command: z.string() }), permission: bashTool.permission, preview: async ({ command }) => ({ summary: command }), execute: async ({ command }) => (ran.push(command), 'ran') });
const editPermission = createFileTools().find((tool) => tool.name === 'edit_file')!.permission;
const edit = defineTool({ name: 'edit_file', description: 'edit', parameters: z.object({ path: z.string() }), permission: editPermission, preview: async ({ path }) => ({ summary: `edit ${path}` }), execute: async ({ path }) => (ran.push(`edit ${path}`), 'edited') });
const registry = new ToolRegistry([bash, edit]);
const WS = '/work/project';
let id = 0;
const call = (name: string, args: Record<string, unknown>, authorize: ReturnType<typeof createPermissionPolicy>) => registry.invoke({ id: `p${++id}`, name, arguments: JSON.stringify(args) }, { authorize, workspace: WS });

describe('the plan scope', () => {
  it('reads the Files: and Commands: lists of a plan, code spans and trailing notes handled', () => {
    expect(parsePlanScope(PLAN)).toEqual({ files: ['src/cli/args.ts', 'test/args.test.ts', 'docs/'], commands: ['npm test*', 'git status'] });
    expect(parsePlanScope('Just read the code; nothing to change.')).toEqual({ files: [], commands: [] });
    expect(parsePlanScope('Files:\n- (none)\nCommands:\n1. make lint\n')).toEqual({ files: [], commands: ['make lint'] });
  });

  it('reads a list written on its heading\'s line: comma- or space-separated files, comma-separated commands', () => {
    expect(parsePlanScope('Plan: rename a flag.\n\nFiles: src/a.ts, src/b.ts test/a.test.ts\nCommands: npm test*, git status\n')).toEqual({ files: ['src/a.ts', 'src/b.ts', 'test/a.test.ts'], commands: ['npm test*', 'git status'] });
    expect(parsePlanScope('**Files:** `src/my file.ts`, `docs/`\n- README.md\n**Commands:** none')).toEqual({ files: ['src/my file.ts', 'docs/', 'README.md'], commands: [] });
    const scope = parsePlanScope('Files: a.ts, b.ts');
    expect(planDeviation(scope, edit, { path: 'b.ts' }, WS)).toBeUndefined();
    expect(planDeviation(scope, edit, { path: 'c.ts' }, WS)).toBe('the approved plan does not name the file c.ts (its Files: a.ts, b.ts)');
  });

  it('a list that cannot be read is said so, not silently empty: --plan-file warns naming the section', () => {
    const plan = 'Plan: tidy up.\n\nFiles:\nsrc/a.ts and src/b.ts get renamed.\n\nCommands:\n- npm test\n';
    expect(parsePlanScope(plan)).toEqual({ files: [], commands: ['npm test'], unread: ['files'] });
    expect(parsePlanScope('Files: a.ts\nprose after it')).toEqual({ files: ['a.ts'], commands: [] });
    const dir = mkdtempSync(join(tmpdir(), 'vibe-plan-'));
    try {
      writeFileSync(join(dir, 'plan.md'), plan);
      const approved = readApprovedPlan('plan.md', dir);
      expect(approved.warnings).toEqual(['--plan-file plan.md: its Files: section cannot be read (write "- entry" one a line, or "Files: a, b" on the heading\'s line); the plan names no files, so every write asks again.']);
      writeFileSync(join(dir, 'plan.md'), 'Files: a.ts, b.ts\n');
      expect(readApprovedPlan('plan.md', dir)).toMatchObject({ scope: { files: ['a.ts', 'b.ts'] }, warnings: [] });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('names what the plan does not cover: a path outside its files, a command outside its commands', () => {
    const scope = parsePlanScope(PLAN);
    expect(planDeviation(scope, edit, { path: 'src/cli/args.ts' }, WS)).toBeUndefined();
    expect(planDeviation(scope, edit, { path: './docs/flags/verbose.md' }, WS)).toBeUndefined();
    expect(planDeviation(scope, edit, { path: 'src/core/loop.ts' }, WS)).toMatch(/does not name the file src\/core\/loop\.ts/);
    expect(planDeviation(scope, edit, { path: '/etc/passwd' }, WS)).toMatch(/does not name the file/);
    expect(planDeviation(scope, bash, { command: 'npm test -- args' }, WS)).toBeUndefined();
    expect(planDeviation(scope, bash, { command: 'git status' }, WS)).toBeUndefined();
    expect(planDeviation(scope, bash, { command: 'git status; rm -rf ~' }, WS)).toMatch(/does not name the command/);
    expect(planDeviation(scope, bash, { command: 'git push' }, WS)).toMatch(/does not name the command "git push"/);
  });

  it('in yolo mode runs what the plan names and asks again for what it does not; no answers "no" with the reason', async () => {
    ran.length = 0;
    const asked: ApprovalRequest[] = [];
    const answers = ['yes', 'no'] as const;
    let n = 0;
    const policy = createPermissionPolicy({ mode: 'yolo', planScope: parsePlanScope(PLAN), ask: async (request) => (asked.push(request), answers[n++]!) });
    expect(await call('edit_file', { path: 'src/cli/args.ts' }, policy)).toMatchObject({ status: 'ok' });
    expect(await call('bash', { command: 'npm test' }, policy)).toMatchObject({ status: 'ok' });
    expect(asked).toEqual([]);
    expect(await call('edit_file', { path: 'src/core/loop.ts' }, policy)).toMatchObject({ status: 'ok' });
    const refused = await call('bash', { command: 'git push --force' }, policy);
    expect(refused.status).toBe('denied');
    expect(refused.content).toContain('does not name the command "git push --force"');
    expect(asked.map((request) => request.summary)).toEqual(['edit src/core/loop.ts (outside the approved plan)', 'git push --force (outside the approved plan)']);
    expect(asked[0]!.detail).toContain('Not in the plan');
    expect(ran).toEqual(['edit src/cli/args.ts', 'npm test', 'edit src/core/loop.ts']);
  });

  it('without a terminal denies the deviating call and tells the model why; setMode without a plan lifts the scope', async () => {
    ran.length = 0;
    const policy = createPermissionPolicy({ mode: 'auto-edit', planScope: parsePlanScope(PLAN) });
    const denied = await call('edit_file', { path: 'package.json' }, policy);
    expect(denied.status).toBe('denied');
    expect(denied.content).toMatch(/the approved plan does not name the file package\.json .*no terminal/);
    expect(await call('edit_file', { path: 'test/args.test.ts' }, policy)).toMatchObject({ status: 'ok' });
    policy.setMode('auto-edit');
    expect(policy.planScope).toBeUndefined();
    expect(await call('edit_file', { path: 'package.json' }, policy)).toMatchObject({ status: 'ok' });
    policy.setMode('plan');
    expect(policy.mode).toBe('plan');
    expect(await call('edit_file', { path: 'package.json' }, policy)).toMatchObject({ status: 'denied' });
    expect(ran).toEqual(['edit test/args.test.ts', 'edit package.json']);
  });
});
