import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { AgentEvent } from '../src/contracts/events.js';
import { startAgentServer, tasks } from './support/agent-server.js';
import { cliHome, type CliHome } from './support/cli-process.js';

const homes: CliHome[] = [];
afterEach(() => homes.splice(0).forEach((home) => home.cleanup()));

async function setup(scripts: Parameters<typeof startAgentServer>[0]) {
  const agents = await startAgentServer(scripts);
  const home = cliHome();
  homes.push(home);
  const env = { OPENAI_API_KEY: 'test-key', OPENAI_BASE_URL: agents.server.url, VIBE_MODEL: 'gpt-4o' };
  return { agents, home, run: (args: string[]) => home.run(args, env) };
}
const events = (stdout: string) => stdout.trim().split('\n').map((line) => JSON.parse(line) as AgentEvent);

describe('subagents and plan mode from the CLI', () => {
  it('plan mode refuses a write at the tool layer and ends with the plan (stop reason plan, exit 0)', async () => {
    const { agents, home, run } = await setup({
      lead: [
        { toolCalls: [{ name: 'write_file', arguments: { path: 'x.txt', content: 'hi' } }] },
        { toolCalls: [{ name: 'list_files', arguments: {} }] },
        { text: 'Plan: 1. create x.txt with write_file.' },
      ],
    });
    const ran = await run(['--permission-mode', 'plan', '--json', 'lead']);
    expect(ran.stderr).toBe('');
    expect(ran.code).toBe(0);
    const all = events(ran.stdout);
    const refused = all.find((event) => event.type === 'tool_call_end' && event.name === 'write_file');
    expect(refused).toMatchObject({ status: 'denied', output: expect.stringMatching(/plan mode: only read-only tools run/) });
    expect(existsSync(join(home.workspace, 'x.txt'))).toBe(false);
    expect(all.find((event) => event.type === 'tool_call_end' && event.name === 'list_files')).toMatchObject({ status: 'ok' });
    expect(all.at(-1)).toMatchObject({ type: 'stop', reason: 'plan', plan: 'Plan: 1. create x.txt with write_file.' });
    expect(agents.requestsOf('lead')[0]!.messages[0]!.content).toMatch(/Plan mode: only read-only tools run/);
  });

  it('runs a project agent from .vibe-agent/agents, passes its events on with its path and keeps its history out of a resume', async () => {
    const { agents, home, run } = await setup({
      lead: [tasks({ prompt: 'look around', agent: 'scout' }), { text: 'the scout saw 2 files' }, { text: 'resumed' }],
      'look around': [{ toolCalls: [{ name: 'list_files', arguments: {} }] }, { text: 'two files' }],
    });
    mkdirSync(join(home.workspace, '.vibe-agent', 'agents'), { recursive: true });
    writeFileSync(join(home.workspace, '.vibe-agent', 'agents', 'scout.md'), '---\nname: scout\ndescription: looks around\ntools: Glob, Read\n---\nYou are a scout.\n');
    writeFileSync(join(home.workspace, 'a.txt'), 'a');
    const ran = await run(['--tools', 'coding,agents', '--json', 'lead']);
    expect(ran.code).toBe(0);
    const all = events(ran.stdout);
    expect(all.filter((event) => event.agent === 'main/task-1').map((event) => event.type)).toContain('tool_call_end');
    const stop = all.at(-1) as Extract<AgentEvent, { type: 'stop' }>;
    expect(stop.agents?.map((spend) => spend.agent)).toEqual(['main', 'main/task-1']);
    expect(agents.requestsOf('look around')[0]!.tools!.map((tool) => tool.function.name).sort()).toEqual(['list_files', 'read_file']);
    expect(agents.requestsOf('look around')[0]!.messages[0]!.content).toMatch(/^You are a scout\./);

    const [file] = home.sessionFiles();
    expect(readFileSync(home.sessionPath(file!), 'utf8')).toContain('"agent":"main/task-1"');
    const resumed = await run(['--tools', 'coding,agents', '--continue', 'and now?']);
    expect(resumed.code).toBe(0);
    const history = agents.requestsOf('lead')[2]!.messages.map((message) => message.role);
    // system, lead, assistant(task), tool(result), assistant(answer), user: no child turns.
    expect(history).toEqual(['system', 'user', 'assistant', 'tool', 'assistant', 'user']);
    expect(agents.server.violations).toEqual([]);
  });
});
