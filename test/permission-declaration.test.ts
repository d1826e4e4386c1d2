/** A tool declares how it is permitted; the policy knows no tool by name (MCP tools come this way). */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createPermissionPolicy, type PermissionOptions } from '../src/permissions/permission-policy.js';
import type { ApprovalAnswer, ApprovalRequest } from '../src/tools/approval.js';
import { defineTool } from '../src/tools/define-tool.js';
import { ToolRegistry } from '../src/tools/registry.js';

const WS = '/work/project';
const ran: string[] = [];

const deploy = defineTool({
  name: 'deploy',
  description: 'Deploy the build to a target.',
  parameters: z.object({ target: z.string(), dry_run: z.boolean().optional() }),
  permission: { category: 'execute', subject: ({ target }) => ({ kind: 'text', value: target }) },
  preview: async ({ target }) => ({ summary: `deploy to ${target}` }),
  execute: async ({ target }) => (ran.push(`deploy ${target}`), `deployed to ${target}`),
});

const annotate = defineTool({
  name: 'annotate',
  description: 'Add a note to a file.',
  parameters: z.object({ file: z.string(), note: z.string() }),
  permission: { category: 'edit', aliases: ['edit'], subject: ({ file }) => ({ kind: 'file-path', value: file }) },
  execute: async ({ file }) => (ran.push(`annotate ${file}`), 'noted'),
});

/** Declares nothing: it writes (readOnly is false), so it is asked about. */
const purge = defineTool({ name: 'purge', description: 'Purge a cache.', parameters: z.object({ cache: z.string() }), execute: async ({ cache }) => `purged ${cache}` });

const registry = new ToolRegistry([deploy, annotate, purge]);

function policy(options: Partial<PermissionOptions>, answers: ApprovalAnswer[] = []) {
  const asked: ApprovalRequest[] = [];
  const authorize = createPermissionPolicy({
    mode: 'ask',
    ask: async (request) => (asked.push(request), answers.shift() ?? 'no'),
    ...options,
  });
  let id = 0;
  const call = async (name: string, args: Record<string, unknown>) =>
    (await registry.invoke({ id: `c${++id}`, name, arguments: JSON.stringify(args) }, { authorize, workspace: WS })).status;
  return { call, asked };
}

describe('a tool defined outside the library gets its rules from its own declaration', () => {
  it('allow and deny rules match the subject it derives from its target argument', async () => {
    const { call, asked } = policy({ allow: ['deploy(staging*)'], deny: ['deploy(prod*)'] });
    expect(await call('deploy', { target: 'staging-eu' })).toBe('ok');
    expect(await call('deploy', { target: 'production' })).toBe('denied');
    expect(await call('deploy', { target: 'qa' })).toBe('denied');
    expect(asked.map((request) => request.summary)).toEqual(['deploy to qa']);
    const yolo = policy({ mode: 'yolo', deny: ['deploy(prod*)'] });
    expect(await yolo.call('deploy', { target: 'prod' })).toBe('denied');
    expect(await yolo.call('deploy', { target: 'qa' })).toBe('ok');
    expect(ran.filter((line) => line.startsWith('deploy'))).toEqual(['deploy staging-eu', 'deploy qa']);
  });

  it('category execute is asked about under auto-edit; category edit runs, and "edit" rules cover it', async () => {
    const autoEdit = policy({ mode: 'auto-edit' });
    expect(await autoEdit.call('deploy', { target: 'qa' })).toBe('denied');
    expect(await autoEdit.call('annotate', { file: 'src/a.ts', note: 'x' })).toBe('ok');
    expect(autoEdit.asked.map((request) => request.tool)).toEqual(['deploy']);
    const rules = policy({ allow: ['edit(src/**)'] });
    expect(await rules.call('annotate', { file: 'src/a.ts', note: 'x' })).toBe('ok');
    expect(await rules.call('annotate', { file: 'test/a.ts', note: 'x' })).toBe('denied');
    // A file-path subject brings the .git guard along: auto-edit does not cover .git/config.
    expect(await autoEdit.call('annotate', { file: '.git/config', note: 'x' })).toBe('denied');
  });

  it('"always" grants exactly that subject for the session; an edit tool gets the whole category', async () => {
    const { call, asked } = policy({}, ['always', 'no', 'always']);
    expect(await call('deploy', { target: 'staging' })).toBe('ok');
    expect(await call('deploy', { target: 'staging', dry_run: true })).toBe('ok');
    expect(await call('deploy', { target: 'staging-2' })).toBe('denied');
    expect(await call('annotate', { file: 'a.ts', note: 'x' })).toBe('ok');
    expect(await call('annotate', { file: 'b/c.ts', note: 'y' })).toBe('ok');
    expect(asked.map((request) => request.always)).toEqual(['deploy(staging)', 'deploy(staging-2)', 'edit']);
  });

  it('a tool that declares nothing is asked about; a pattern rule naming it denies every call it cannot check', async () => {
    const autoEdit = policy({ mode: 'auto-edit' }, ['always']);
    expect(await autoEdit.call('purge', { cache: 'a' })).toBe('ok');
    expect(await autoEdit.call('purge', { cache: 'b' })).toBe('ok');
    expect(autoEdit.asked.map((request) => request.always)).toEqual(['purge']);
    const denyPattern = policy({ mode: 'yolo', deny: ['purge(a*)'] });
    expect(await denyPattern.call('purge', { cache: 'zzz' })).toBe('denied');
    const anyTool = policy({ mode: 'yolo', deny: ['*(src/**)'] });
    expect(await anyTool.call('purge', { cache: 'zzz' })).toBe('ok');
    expect(await anyTool.call('annotate', { file: 'src/a.ts', note: 'x' })).toBe('denied');
    const allowPattern = policy({ allow: ['purge(a*)'] });
    expect(await allowPattern.call('purge', { cache: 'a' })).toBe('denied');
    expect(allowPattern.asked).toHaveLength(1);
  });
});
