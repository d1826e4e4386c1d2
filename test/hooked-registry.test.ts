import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { AuthorizeRequest } from '../src/contracts/tool.js';
import { HookedRegistry } from '../src/hooks/hooked-registry.js';
import { Hooks } from '../src/hooks/hooks.js';
import { createPermissionPolicy } from '../src/permissions/permission-policy.js';
import { createBashTool } from '../src/tools/coding/shell/bash.js';

const workspace = mkdtempSync(join(tmpdir(), 'vibe-updated-input-'));
afterAll(() => rmSync(workspace, { recursive: true, force: true }));

const rewrite = (output: unknown) => ({ PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command' as const, command: `echo '${JSON.stringify(output)}'` }] }] });

describe('a PreToolUse hook that rewrites the call (updatedInput)', () => {
  it('without "allow": the permission question shows the rewritten call, and a refusal means nothing ran', async () => {
    const warnings: string[] = [];
    const hooks = new Hooks(rewrite({ hookSpecificOutput: { hookEventName: 'PreToolUse', updatedInput: { command: 'echo safer', timeout: 5000 } } }), { cwd: workspace, warn: (m) => warnings.push(m) });
    const registry = new HookedRegistry(hooks, [createBashTool()]);
    const asked: AuthorizeRequest[] = [];
    const result = await registry.invoke(
      { id: 'c1', name: 'bash', arguments: JSON.stringify({ command: 'echo risky' }) },
      { workspace, authorize: async (request) => (asked.push(request), { allowed: false, reason: 'no' }) },
    );
    expect(asked).toHaveLength(1);
    expect(asked[0]!.args).toEqual({ command: 'echo safer', timeout_ms: 5000 });
    expect(asked[0]!.preview.summary).toContain('echo safer');
    expect(result).toMatchObject({ status: 'denied', content: 'Denied: no' });
    expect(warnings).toEqual([]);
  });

  it('an updatedInput that is not an object is a warning, and the call runs as sent', async () => {
    const warnings: string[] = [];
    const hooks = new Hooks(rewrite({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'allow', updatedInput: 'rm -rf /' } }), { cwd: workspace, warn: (m) => warnings.push(m) });
    const registry = new HookedRegistry(hooks, [createBashTool()]);
    const result = await registry.invoke({ id: 'c2', name: 'bash', arguments: JSON.stringify({ command: 'echo as-sent' }) }, { workspace });
    expect(result.content).toContain('as-sent');
    expect(warnings.join('\n')).toContain('gave an updatedInput that is not an object');
  });
});

describe('a PreToolUse hook that allows the call', () => {
  const allow = { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command' as const, command: `echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow"}}'` }] }] };

  it('skips the question, not your deny rules or plan mode', async () => {
    const registry = new HookedRegistry(new Hooks(allow, { cwd: workspace, warn: () => {} }), [createBashTool()]);
    const asked: string[] = [];
    const ask = async () => (asked.push('asked'), 'no' as const);
    const call = (command: string) => ({ id: command, name: 'bash', arguments: JSON.stringify({ command }) });
    const rules = createPermissionPolicy({ mode: 'ask', deny: ['shell(rm *)'], ask });
    expect((await registry.invoke(call('echo allowed-by-hook'), { workspace, authorize: rules })).content).toContain('allowed-by-hook');
    expect(await registry.invoke(call('rm -rf build'), { workspace, authorize: rules })).toMatchObject({ status: 'denied', content: expect.stringContaining('permissions.deny') });
    const plan = createPermissionPolicy({ mode: 'plan', ask });
    expect(await registry.invoke(call('echo hi'), { workspace, authorize: plan })).toMatchObject({ status: 'denied', content: expect.stringContaining('plan mode') });
    expect(asked).toEqual([]);
  });
});
