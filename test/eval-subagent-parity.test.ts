/**
 * The two front ends that drive the session core from inside the agent: `eval` (which runs the built
 * CLI one-shot per task) and a subagent (a child conversation the task tool starts). An eval task's
 * requests must be the requests of the same one-shot run by hand, and a child's requests those of the
 * same prompt run directly as a one-shot with the agent's tools, but for the system prompt, which is the
 * agent's by design. Compared: whole request bodies (model, parameters, messages, tools) less the
 * tool-call ids the wire server numbers; for the child also less the system prompt, the prompt-cache key
 * and the one-shot's read_output tool.
 */
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startAgentServer, tasks } from './support/agent-server.js';
import { startChatServer, type ChatRequestBody } from './support/chat-server.js';
import { cliHome, homeEnv, spawnCli } from './support/cli-process.js';
import { evalScript } from './support/eval-model.js';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const SUITE = join(import.meta.dirname, 'fixtures', 'eval-suite');

function tempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/**
 * A request less what differs by design between two conversations: the system prompt, the session's
 * prompt-cache key and the tool-call ids (the wire server numbers them across conversations).
 */
function comparable(body: ChatRequestBody): unknown {
  const { prompt_cache_key: _key, ...rest } = body as ChatRequestBody & { prompt_cache_key?: string };
  return withCallIds({ ...rest, messages: rest.messages.slice(1) });
}

/** The tool-call ids are the wire server's, numbered across every conversation it served. */
function withCallIds(body: unknown): unknown {
  return JSON.parse(JSON.stringify(body).replace(/"call_\d+"/g, '"CALL"'));
}

/** Without the one-shot's `read_output` (a child is not offered it; see the test). */
function withoutReadOutput(body: ChatRequestBody): ChatRequestBody {
  return { ...body, tools: body.tools!.filter((tool) => tool.function.name !== 'read_output') };
}

describe('eval and a subagent drive the same conversation as a one-shot', () => {
  it("an eval task's requests are the requests of the same one-shot run by hand", async () => {
    const server = await startChatServer(evalScript(4));
    cleanups.push(() => server.close());
    const home = tempDir('vibe-parity-eval-');
    const env = homeEnv(home);
    // A suite of the one task (answer-file: a write, then the answer).
    const suite = join(home, 'suite');
    mkdirSync(suite);
    cpSync(join(SUITE, 'answer-file.json'), join(suite, 'answer-file.json'));
    const evaluated = await spawnCli(['eval', '--suite', suite, '--base-url', server.url, '--model', 'test-model', '--runs', '1'], { cwd: home, env });
    expect(evaluated.code, evaluated.stderr).toBe(0);
    const evalBodies = server.requests.slice();
    expect(evalBodies).toHaveLength(2);

    // The one-shot eval runs, by hand, in a folder of our own.
    const dir = tempDir('vibe-parity-oneshot-');
    const oneShot = await spawnCli(['--json', '--yes', '--no-session', '--cwd', dir, '--max-turns', '4', '--tools', 'write_file', '--base-url', server.url, '--model', 'test-model', '-p', 'TASK answer-file: write 42 into answer.txt.'], { cwd: home, env });
    expect(oneShot.code, oneShot.stderr).toBe(0);
    const oneShotBodies = server.requests.slice(evalBodies.length);
    expect(oneShotBodies.map(withCallIds)).toEqual(evalBodies.map(withCallIds));
    expect(server.violations).toEqual([]);
  }, 120_000);

  it("a child's requests are the same prompt's run directly as a one-shot with the agent's tools, but for the system prompt", async () => {
    const child = [{ toolCalls: [{ name: 'list_files', arguments: {} }] }, { text: 'two files' }];
    const agents = await startAgentServer({
      lead: [tasks({ prompt: 'look around', agent: 'scout' }), { text: 'the scout saw 2 files' }],
      'look around': [...child, ...child],
    });
    const home = cliHome();
    cleanups.push(() => home.cleanup());
    mkdirSync(join(home.workspace, '.vibe-agent', 'agents'), { recursive: true });
    writeFileSync(join(home.workspace, '.vibe-agent', 'agents', 'scout.md'), '---\nname: scout\ndescription: looks around\ntools: Glob, Read\n---\nYou are a scout.\n');
    writeFileSync(join(home.workspace, 'a.txt'), 'a');
    const env = { OPENAI_API_KEY: 'test-key', OPENAI_BASE_URL: agents.server.url, VIBE_MODEL: 'gpt-4o' };
    const led = await home.run(['--tools', 'coding,agents', 'lead'], env);
    expect(led.code, led.stderr).toBe(0);
    // The agent's tools (Glob, Read) in the order the child offers them.
    const direct = await home.run(['--tools', 'read_file,list_files', 'look around'], env);
    expect(direct.code, direct.stderr).toBe(0);
    const [childFirst, childSecond, directFirst, directSecond] = agents.requestsOf('look around');
    expect(directSecond, 'four requests: two from the child, two from the one-shot').toBeDefined();
    // The system prompt is the agent's (its body, then what a subagent is told).
    expect(childFirst!.messages[0]).toMatchObject({ role: 'system', content: expect.stringMatching(/^You are a scout\.\n\nYou are a subagent/) });
    expect(directFirst!.messages[0]).toMatchObject({ role: 'system', content: expect.stringMatching(/^You are Vibe Agent/) });
    expect(childFirst!.tools!.map((tool) => tool.function.name)).toEqual(['read_file', 'list_files']);
    expect(childSecond!.messages.map((message) => message.role)).toEqual(['system', 'user', 'assistant', 'tool']);
    // The one-shot also offers read_output (for a tool output shortened in the conversation); a
    // child is not offered it: the one difference in what the two send besides the system prompt.
    expect(directFirst!.tools!.map((tool) => tool.function.name)).toEqual(['read_file', 'list_files', 'read_output']);
    expect(comparable(childFirst!)).toEqual(comparable(withoutReadOutput(directFirst!)));
    expect(comparable(childSecond!)).toEqual(comparable(withoutReadOutput(directSecond!)));
    expect(agents.unscripted).toEqual([]);
    expect(agents.server.violations).toEqual([]);
  }, 120_000);
});
