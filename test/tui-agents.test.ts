/**
 * Subagents and plan mode in the interactive UI, in a real terminal (tmux) against the local
 * Chat Completions server: a child shows as a folded block under its task line that Ctrl-O
 * expands; Shift+Tab and /plan switch modes; a plan is approved and carried out in the chosen
 * mode, and a call outside it is asked about again.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ChatRequestBody, ServerStep } from './support/chat-server.js';
import { cleanupAfterEach, requireTmux } from './support/tmux.js';
import { statusLine, tuiSession } from './support/tui-session.js';

const cleanups = cleanupAfterEach();
requireTmux();

const isChild = (body: ChatRequestBody) => String(body.messages.find((message) => message.role === 'system')?.content ?? '').includes('You are a subagent');

/** One server for a parent and its child: each replays its own script, told apart by the child's system prompt. */
function parentAndChild(parent: ServerStep[], child: ServerStep[]): { script: ServerStep[]; conversationOf: (body: ChatRequestBody) => string } {
  const next = (body: ChatRequestBody) => {
    const step = (isChild(body) ? child : parent).shift() ?? { text: 'out of script' };
    return typeof step === 'function' ? step(body) : step;
  };
  return { script: Array.from({ length: parent.length + child.length + 2 }, () => next), conversationOf: (body) => (isChild(body) ? 'child' : 'parent') };
}

describe('subagents in the terminal UI (tmux)', () => {
  it('folds a child under its task line, keeps its text out of the answer, and Ctrl-O expands and folds it', async () => {
    const { script, conversationOf } = parentAndChild(
      [{ toolCalls: [{ name: 'task', arguments: { description: 'survey the code', prompt: 'look at a.txt' } }] }, { text: 'The child reported: alpha.' }],
      [
        { text: 'CHILD-CHATTER never shown. ', toolCalls: [{ name: 'read_file', arguments: { path: 'a.txt' } }] },
        { toolCalls: [{ name: 'bash', arguments: { command: 'echo from-child' } }] },
        { text: 'CHILD-ANSWER: a.txt holds alpha' },
      ],
    );
    const { server, pane, workspace } = await tuiSession(cleanups, script, { args: ['--tools', 'coding,agents', '--sandbox', 'off'], server: { conversationOf } });
    writeFileSync(join(workspace, 'a.txt'), 'alpha\n');
    await pane.waitFor('/help for commands');
    await pane.send(['survey please'], { literal: true });
    await pane.send(['Enter']);

    // The child waits on a question: its block is live under the running task line, folded.
    const asking = await pane.waitFor('Allow bash? echo from-child');
    expect(asking).toMatch(/task description="survey the code"/);
    expect(asking).toMatch(/└ ▸ task-1 survey the code · 2 turns · 1 tool · running/);
    expect(asking).not.toContain('read_file');
    expect(asking).not.toContain('CHILD-CHATTER');
    expect(statusLine(asking)).toContain('Ctrl-O expands');

    await pane.send(['C-o']);
    const expanded = await pane.waitFor('▾ task-1');
    expect(expanded).toMatch(/✓ read_file path="a\.txt"/);
    expect(expanded).toContain('Allow bash? echo from-child'); // still asking
    await pane.send(['y'], { literal: true });

    const done = await pane.waitFor('The child reported: alpha.');
    expect(done).toMatch(/▾ task-1 survey the code · 3 turns · 2 tools · done/);
    expect(done).toMatch(/✓ bash command="echo from-child"/);
    expect(done).not.toContain('CHILD-CHATTER');
    expect(done).not.toMatch(/^CHILD-ANSWER/m); // the child's answer is the task's result, not text of the answer
    expect(server.requests.filter((body) => !isChild(body))[1]!.messages.find((message) => message.role === 'tool')?.content).toBe('CHILD-ANSWER: a.txt holds alpha');

    // At the prompt: Ctrl-O folds (nothing to redraw), and again prints the last turn's blocks expanded.
    await pane.waitFor((screen) => statusLine(screen).includes('Ctrl-O folds') && !statusLine(screen).includes('working'));
    await pane.send(['C-o']);
    await pane.waitFor((screen) => statusLine(screen).includes('Ctrl-O expands'));
    await pane.send(['C-o']);
    const reprinted = await pane.waitFor('Subagents of the last turn');
    expect(reprinted.slice(reprinted.indexOf('Subagents of the last turn'))).toMatch(/▾ task-1 survey the code[\s\S]*read_file[\s\S]*echo from-child/);
    expect(server.violations).toEqual([]);
  });
});

describe('plan mode in the terminal UI (tmux)', () => {
  it('Shift+Tab cycles to plan mode; the plan is approved for auto-edit and carried out; a call outside it asks again', async () => {
    const plan = 'Plan:\n1. Write the notes.\n\nFiles:\n- notes.txt\n\nCommands:\n- cat notes.txt\n';
    const { server, pane, workspace } = await tuiSession(
      cleanups,
      [
        { toolCalls: [{ name: 'write_file', arguments: { path: 'notes.txt', content: 'too early\n' } }] },
        { text: plan },
        { toolCalls: [{ name: 'write_file', arguments: { path: 'notes.txt', content: 'planned\n' } }] },
        { toolCalls: [{ name: 'bash', arguments: { command: 'rm -rf build' } }] },
        { text: 'Plan carried out.' },
        { text: 'Nothing to change.\n\nFiles:\n- (none)\n' },
      ],
      { args: ['--tools', 'coding', '--sandbox', 'off'] },
    );
    await pane.waitFor('/help for commands');
    await pane.send(['BTab']);
    await pane.waitFor((screen) => statusLine(screen).includes('auto-edit (⇧Tab)'));
    await pane.send(['BTab']);
    await pane.waitFor((screen) => statusLine(screen).includes('auto (⇧Tab)'));
    await pane.send(['BTab']);
    await pane.waitFor((screen) => statusLine(screen).includes('plan mode (⇧Tab)'));

    await pane.send(['write the notes'], { literal: true });
    await pane.send(['Enter']);
    const question = await pane.waitFor('Execute this plan?');
    expect(question).toMatch(/⊘ write_file|write_file.*plan mode/);
    expect(question).toContain('Files: notes.txt');
    expect(question).toContain('Commands: cat notes.txt');
    expect(existsSync(join(workspace, 'notes.txt'))).toBe(false);
    expect(String(server.requests[0]!.messages[0]!.content)).toContain('Plan mode: only read-only tools run');
    expect(server.requests[1]!.messages.at(-1)!.content).toMatch(/^Denied: plan mode/);

    await pane.send(['e'], { literal: true });
    const outside = await pane.waitFor('Allow bash? rm -rf build (outside the approved plan)');
    expect(outside).toContain('Not in the plan: the approved plan does not name the command "rm -rf build"');
    expect(statusLine(outside)).toContain('auto-edit+plan');
    // The edit the plan names ran without a question (auto-edit).
    expect(readFileSync(join(workspace, 'notes.txt'), 'utf8')).toBe('planned\n');
    const execution = server.requests[2]!.messages;
    expect(execution.at(-1)).toMatchObject({ role: 'user', content: 'The plan is approved: carry it out now.' });
    expect(execution.some((message) => message.role === 'assistant' && String(message.content).includes('Files:\n- notes.txt'))).toBe(true);
    expect(String(execution[0]!.content)).not.toContain('Plan mode: only read-only tools run');
    await pane.send(['n'], { literal: true });
    await pane.waitFor('Plan carried out.');
    expect(server.requests[4]!.messages.at(-1)!.content).toMatch(/^Denied: the user declined this call: the approved plan does not name the command/);

    // /plan goes back to plan mode; this time the user keeps planning.
    await pane.waitFor((screen) => !statusLine(screen).includes('working'));
    await pane.send(['/plan'], { literal: true });
    await pane.send(['Enter']);
    await pane.waitFor((screen) => statusLine(screen).includes('plan mode (⇧Tab)'));
    await pane.send(['anything else?'], { literal: true });
    await pane.send(['Enter']);
    // The first plan's answered question is still on the screen: wait for this plan's own.
    await pane.waitFor((screen) => screen.includes('Files: none') && screen.includes('k keep planning'));
    await pane.send(['k'], { literal: true });
    const kept = await pane.waitFor('keep planning (still in plan mode)');
    expect(statusLine(kept)).toContain('plan mode (⇧Tab)');
    expect(server.requests).toHaveLength(6);
    expect(server.violations).toEqual([]);
  });
});
