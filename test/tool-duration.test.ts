/** A tool's reported duration is its execution only, never the time the user took to approve it. */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { Authorize } from '../src/contracts/tool.js';
import { defineTool } from '../src/tools/define-tool.js';
import { ofType, runScenario } from './support/harness.js';

const APPROVAL_WAIT_MS = 300;

describe('tool_call_end durationMs', () => {
  it('leaves out the wait for approval', async () => {
    const touch = defineTool({ name: 'touch', description: 'Touches a file.', parameters: z.object({ path: z.string() }), execute: async ({ path }) => `touched ${path}` });
    let entered!: () => void;
    const asked = new Promise<void>((resolve) => (entered = resolve));
    let approve!: () => void;
    const approval = new Promise<void>((resolve) => (approve = resolve));
    let waitedMs = 0;
    const authorize: Authorize = async () => {
      const started = performance.now();
      entered();
      await approval;
      waitedMs = performance.now() - started;
      return { allowed: true };
    };

    const scenario = runScenario([{ toolCalls: [{ name: 'touch', arguments: { path: 'a.txt' } }] }, { text: 'done' }], { toolList: [touch], authorize });
    await asked;
    // The user takes a while to answer: that is the wait the duration must not count.
    setTimeout(approve, APPROVAL_WAIT_MS);
    const { events } = await scenario;

    const [end] = ofType(events, 'tool_call_end');
    expect(end).toMatchObject({ name: 'touch', status: 'ok', output: 'touched a.txt' });
    expect(waitedMs).toBeGreaterThan(APPROVAL_WAIT_MS / 2);
    expect(end!.durationMs).toBeLessThan(waitedMs);
  });
});
