/**
 * PreToolUse answers honoured as Claude Code defines them (issue 34, class 6), in its documented
 * JSON shapes: `hookSpecificOutput.permissionDecision` "allow" (no question), "deny" (not run, the
 * reason to the model), "ask" (a question even where an allow rule, a grant or the mode would let
 * the call run; refused without a terminal), and no answer (the usual rules).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { HookedRegistry } from '../src/hooks/hooked-registry.js';
import { Hooks } from '../src/hooks/hooks.js';
import { createPermissionPolicy } from '../src/permissions/permission-policy.js';
import type { UnaskedCall } from '../src/permissions/unasked-call.js';
import { createBashTool } from '../src/tools/coding/shell/bash.js';

const workspace = mkdtempSync(join(tmpdir(), 'vibe-hook-decisions-'));
afterAll(() => rmSync(workspace, { recursive: true, force: true }));

type Decision = 'allow' | 'deny' | 'ask' | 'none';
const shape = (decision: Decision) =>
  decision === 'none' ? { suppressOutput: false } : { hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: decision, permissionDecisionReason: `the hook says ${decision}` } };

function registryAnswering(decision: Decision) {
  const hooks = new Hooks({ PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: `echo '${JSON.stringify(shape(decision))}'` }] }] }, { cwd: workspace, warn: () => {} });
  return new HookedRegistry(hooks, [createBashTool()]);
}

describe('PreToolUse permissionDecision', () => {
  it('property: allow, deny, ask and no answer, under every mode, with and without an allow rule and a terminal', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom<Decision>('allow', 'deny', 'ask', 'none'),
        fc.constantFrom('ask' as const, 'auto-edit' as const, 'yolo' as const),
        fc.boolean(),
        fc.boolean(),
        fc.constantFrom('yes' as const, 'no' as const),
        async (decision, mode, allowRule, terminal, answer) => {
          const questions: string[] = [];
          const unasked: UnaskedCall[] = [];
          const policy = createPermissionPolicy({
            mode,
            ...(allowRule ? { allow: ['shell(echo *)'] } : {}),
            ...(terminal ? { ask: async (request) => (questions.push(request.detail ?? ''), answer) } : {}),
            onUnasked: (call) => unasked.push(call),
          });
          const result = await registryAnswering(decision).invoke({ id: 'c', name: 'bash', arguments: JSON.stringify({ command: 'echo ran-it' }) }, { workspace, authorize: policy });
          const ran = result.content.includes('ran-it') && !result.isError;
          if (decision === 'deny') {
            expect(questions).toEqual([]);
            expect(ran).toBe(false);
            expect(result.content).toContain('the hook says deny');
          } else if (decision === 'allow') {
            expect(questions).toEqual([]);
            expect(ran).toBe(true);
          } else if (decision === 'ask') {
            expect(questions).toHaveLength(terminal ? 1 : 0);
            if (terminal) expect(questions[0]).toContain('the hook says ask');
            expect(unasked).toHaveLength(terminal ? 0 : 1);
            expect(ran).toBe(terminal && answer === 'yes');
          } else {
            const rulesLetItRun = allowRule || mode === 'yolo';
            expect(questions).toHaveLength(!rulesLetItRun && terminal ? 1 : 0);
            expect(ran).toBe(rulesLetItRun || (terminal && answer === 'yes'));
          }
        },
      ),
      { numRuns: 40 },
    );
  });

  it('"ask" does not pass a deny rule or plan mode', async () => {
    const questions: unknown[] = [];
    const ask = async () => (questions.push(1), 'yes' as const);
    const registry = registryAnswering('ask');
    const denied = await registry.invoke({ id: 'd', name: 'bash', arguments: JSON.stringify({ command: 'echo x' }) }, { workspace, authorize: createPermissionPolicy({ mode: 'ask', deny: ['shell(echo *)'], ask }) });
    expect(denied.content).toContain('permissions.deny');
    const plan = await registry.invoke({ id: 'p', name: 'bash', arguments: JSON.stringify({ command: 'echo x' }) }, { workspace, authorize: createPermissionPolicy({ mode: 'plan', ask }) });
    expect(plan.content).toContain('plan mode');
    expect(questions).toEqual([]);
  });
});
