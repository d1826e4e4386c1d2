/**
 * Where someone can be asked (the TUI, an editor), the auto mode hands back by asking: after 3
 * reviewer refusals in a row the call becomes the person's question, and a "yes" runs it and
 * starts the count again. The reviewer here is the scripted model.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ApprovalRequest } from '../src/tools/approval.js';
import { createPermissionPolicy } from '../src/permissions/permission-policy.js';
import { ScriptedProvider } from '../src/providers/scripted.js';
import { createBashTool } from '../src/tools/coding/shell/bash.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const deny = { text: JSON.stringify({ outcome: 'deny', risk_level: 'medium', user_authorization: 'none', rationale: 'not asked for' }) };

describe('the auto mode hands back to the person', () => {
  it('asks at the third refusal in a row; a yes runs the call and the count starts again', async () => {
    const workspace = mkdtempSync(join(tmpdir(), 'vibe-hand-back-'));
    dirs.push(workspace);
    const asked: ApprovalRequest[] = [];
    const provider = new ScriptedProvider([deny, deny, deny, deny]);
    const policy = createPermissionPolicy({ mode: 'auto', protectedDirs: [], ask: async (request) => (asked.push(request), 'yes'), auto: { reviewer: { provider, model: 'reviewer' } } });
    const bash = createBashTool();
    const decide = (command: string) =>
      policy({ tool: bash, args: { command }, call: { id: command, name: 'bash', arguments: '{}' }, preview: { summary: command }, workspace, signal: new AbortController().signal, history: [{ role: 'user', content: 'tidy up' }] });
    expect((await decide('echo 1')).allowed).toBe(false);
    expect((await decide('echo 2')).allowed).toBe(false);
    expect(asked).toHaveLength(0);
    const third = await decide('echo 3');
    expect(third).toMatchObject({ allowed: true, review: { tier: 'person', verdict: 'allow', handedBack: true, refusals: { inARow: 3, total: 3 } } });
    expect(asked).toHaveLength(1);
    expect(asked[0]!.summary).toContain('auto mode: 3 refused in a row, 3 in all');
    expect(asked[0]!.always).toBeUndefined();
    // Counted again from one: the next refusal is not asked about.
    expect((await decide('echo 4')).review).toMatchObject({ tier: 'reviewer', verdict: 'deny', refusals: { inARow: 1, total: 4 } });
    expect(asked).toHaveLength(1);
    expect(provider.requests).toHaveLength(4);
  });
});
