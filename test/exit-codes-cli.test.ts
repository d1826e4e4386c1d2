/**
 * Exit codes CI can trust: a headless run whose calls needed approval that nobody could give ends
 * with exit 4 and says how to allow them; the rule it suggests, put in the user config, does allow them.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useChatCli } from './support/chat-cli.js';

const setup = useChatCli(['--sandbox', 'off']);

const writeAnswer = { toolCalls: [{ name: 'write_file', arguments: { path: 'answer.txt', content: '42\n' } }] };
const echo = { toolCalls: [{ name: 'bash', arguments: { command: 'echo checked' } }] };

function allowRuleShown(stderr: string): string[] {
  const match = /"permissions": \{ "allow": (\[[^\]]*\]) \}/.exec(stderr);
  expect(match, stderr).not.toBeNull();
  return JSON.parse(match![1]!) as string[];
}

describe('a headless run that needed approval', () => {
  it('exits 4 naming --yes, the auto-edit mode and the allow rule; the rule, put in the user config, lets the same run pass', async () => {
    const { home, run } = await setup([writeAnswer, { text: 'I could not write it.' }, writeAnswer, { text: 'Written.' }]);
    const refused = await run(['write the answer', '--tools', 'coding']);
    expect(refused.code, refused.stderr).toBe(4);
    expect(refused.stdout).toContain('I could not write it.');
    expect(refused.stderr).toContain('1 call needed approval and there was no terminal to ask, so it was refused (exit 4):');
    expect(refused.stderr).toContain("\n  write_file: write answer.txt (new, 1 line)\n");
    expect(refused.stderr).toContain('--yes (or --permission-mode yolo)');
    expect(refused.stderr).toContain('--permission-mode auto-edit: file edits run\n');
    expect(refused.stderr).toContain(join(home.env.XDG_CONFIG_HOME, 'vibe-agent', 'config.json'));
    const rules = allowRuleShown(refused.stderr);
    expect(rules).toEqual(['edit(answer.txt)']);
    expect(existsSync(join(home.workspace, 'answer.txt'))).toBe(false);

    mkdirSync(join(home.env.XDG_CONFIG_HOME, 'vibe-agent'), { recursive: true });
    writeFileSync(join(home.env.XDG_CONFIG_HOME, 'vibe-agent', 'config.json'), JSON.stringify({ permissions: { allow: rules } }));
    const allowed = await run(['write the answer', '--tools', 'coding']);
    expect(allowed.code, allowed.stderr).toBe(0);
    expect(allowed.stderr).not.toContain('needed approval');
    expect(readFileSync(join(home.workspace, 'answer.txt'), 'utf8')).toBe('42\n');
  });

  it('with --yes the same run exits 0', async () => {
    const { home, run } = await setup([writeAnswer, { text: 'Written.' }]);
    const ran = await run(['write the answer', '--tools', 'coding', '--yes']);
    expect(ran.code, ran.stderr).toBe(0);
    expect(readFileSync(join(home.workspace, 'answer.txt'), 'utf8')).toBe('42\n');
  });

  it('a command: the rule is its leading words, auto-edit is not offered, and the --json stop event lists the call', async () => {
    const { home, run } = await setup([echo, { text: 'Could not run it.' }, echo, { text: 'Ran it.' }]);
    const refused = await run(['check', '--tools', 'bash', '--json']);
    expect(refused.code, refused.stderr).toBe(4);
    expect(refused.stderr).not.toContain('auto-edit');
    const stop = refused.stdout.trim().split('\n').map((line) => JSON.parse(line) as { type: string }).at(-1);
    expect(stop).toMatchObject({ type: 'stop', reason: 'answered', approvalNeeded: [{ tool: 'bash', allow: 'bash(echo*)' }] });
    expect(allowRuleShown(refused.stderr)).toEqual(['bash(echo*)']);

    mkdirSync(join(home.env.XDG_CONFIG_HOME, 'vibe-agent'), { recursive: true });
    writeFileSync(join(home.env.XDG_CONFIG_HOME, 'vibe-agent', 'config.json'), JSON.stringify({ permissions: { allow: ['bash(echo*)'] } }));
    const allowed = await run(['check', '--tools', 'bash', '--json']);
    expect(allowed.code, allowed.stderr).toBe(0);
    expect(allowed.stdout).not.toContain('approvalNeeded');
  });

  it('a run that needed no approval still exits 0, and a refused call does not hide a brake (exit 3)', async () => {
    const { run } = await setup([{ text: 'Nothing to do.' }, echo, echo]);
    expect((await run(['hello', '--tools', 'bash'])).code).toBe(0);
    const braked = await run(['check', '--tools', 'bash', '--max-turns', '1']);
    expect(braked.code, braked.stderr).toBe(3);
    expect(braked.stderr).toContain('1 call needed approval and there was no terminal to ask, so it was refused:');
  });
});
