import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ChatRequestBody } from './support/chat-server.js';
import { useChatCli } from './support/chat-cli.js';
import { CLI_SESSION_TIMEOUT_MS, waitFor } from './support/cli-process.js';
import { referenceServer, startEverythingHttp, type EverythingHttp } from './support/reference-servers.js';

// Four CLI runs at most per test, each up to CLI_SESSION_TIMEOUT_MS on a loaded machine.
const TIMEOUT = 2 * CLI_SESSION_TIMEOUT_MS;
// A server's start can outlast the default 5 s wait for MCP servers at load 8.
const RUN_ENV = { VIBE_MCP_WAIT: '60' };
const setup = useChatCli();
/** A one-shot task: no session kept; the servers' tools run without asking (there is no terminal). */
const task = (prompt: string) => [prompt, '--no-session', '--yes'];
const httpServers: EverythingHttp[] = [];
afterEach(async () => {
  await Promise.all(httpServers.splice(0).map((server) => server.close()));
});

/** The tool message answering `callId` in a request the model received. */
function toolResult(request: ChatRequestBody | undefined, callId: string): string {
  const message = request?.messages.find((m) => m.role === 'tool' && m.tool_call_id === callId);
  expect(message, `no tool result for ${callId}`).toBeDefined();
  return String(message!.content);
}

const offered = (request: ChatRequestBody | undefined) => (request?.tools ?? []).map((tool) => tool.function.name);

/** `mcp add` output: "added NAME (transport): N tools: a, b, …" → the names. */
function addedTools(stdout: string): string[] {
  const match = /added \S+ \(\w+\): (\d+) tools: (.*)/.exec(stdout);
  expect(match, stdout).not.toBeNull();
  const names = match![2]!.split(', ');
  expect(names).toHaveLength(Number(match![1]));
  return names;
}

describe('the official MCP reference servers (@modelcontextprotocol/server-* 2026.8.31) with the built CLI', () => {
  it(
    'everything over stdio: mcp add lists its tools, mcp list shows it ready; echo, an image, an embedded resource and a long-running operation reach the model; the server sees its own env, not the model key',
    async () => {
      const { server, run, env } = await setup([
        {
          toolCalls: [
            { id: 'echo', name: 'mcp__everything__echo', arguments: { message: 'hello from the reference server' } },
            { id: 'image', name: 'mcp__everything__get-tiny-image', arguments: {} },
            { id: 'resource', name: 'mcp__everything__get-resource-reference', arguments: { resourceType: 'Text', resourceId: 3 } },
            { id: 'long', name: 'mcp__everything__trigger-long-running-operation', arguments: { duration: 1, steps: 2 } },
            { id: 'env', name: 'mcp__everything__get-env', arguments: {} },
          ],
        },
        { text: 'All five came back.' },
      ]);
      const added = await run(['mcp', 'add', 'everything', '-e', 'GREETING=from the config', '--', process.execPath, referenceServer.everything, 'stdio']);
      expect(added.code, added.stderr).toBe(0);
      const tools = addedTools(added.stdout);
      expect(tools).toEqual(expect.arrayContaining(['echo', 'get-sum', 'get-tiny-image', 'get-resource-reference', 'trigger-long-running-operation']));

      const listed = await run(['mcp', 'list']);
      expect(listed.code, listed.stderr).toBe(0);
      expect(listed.stdout).toMatch(new RegExp(`everything\\s+ready\\s+${tools.length}\\s`));
      expect(listed.stdout).toContain('/mcp__everything__simple-prompt');

      const ran = await run(task('use the everything server'), RUN_ENV);
      expect(ran.code, ran.stderr).toBe(0);
      expect(ran.stdout.trim()).toBe('All five came back.');
      expect(server.violations).toEqual([]);
      const first = server.requests[0];
      expect(offered(first)).toEqual(expect.arrayContaining(tools.map((tool) => `mcp__everything__${tool}`)));
      const echoSpec = first!.tools!.find((tool) => tool.function.name === 'mcp__everything__echo')!.function;
      expect(echoSpec.description).toBe('Echoes back the input string');
      expect(echoSpec.parameters).toMatchObject({ type: 'object', properties: { message: { type: 'string' } }, required: ['message'] });

      const second = server.requests[1];
      expect(toolResult(second, 'echo')).toBe('Echo: hello from the reference server');
      // Our client describes an image instead of passing its bytes (src/mcp/result-text.ts).
      const image = toolResult(second, 'image');
      const [, bytes] = /^Here's the image you requested:\n\[image: image\/png, (\d+) bytes, not shown\]\nThe image above is the MCP logo\.$/.exec(image) ?? [];
      expect(Number(bytes), image).toBeGreaterThan(1000);
      expect(toolResult(second, 'resource')).toMatch(
        /^Returning resource reference for Resource 3:\n\[resource demo:\/\/resource\/dynamic\/text\/3\]\nResource 3: This is a plaintext resource created at .+\nYou can access this resource using the URI: demo:\/\/resource\/dynamic\/text\/3$/,
      );
      expect(toolResult(second, 'long')).toBe('Long running operation completed. Duration: 1 seconds, Steps: 2.');
      const serverEnv = JSON.parse(toolResult(second, 'env')) as Record<string, string>;
      expect(serverEnv.GREETING).toBe('from the config');
      expect(serverEnv).not.toHaveProperty('OPENAI_API_KEY');
      expect(Object.values(serverEnv)).not.toContain(env.OPENAI_API_KEY);
    },
    TIMEOUT,
  );

  for (const transport of ['streamableHttp', 'sse'] as const) {
    it(
      `everything over ${transport === 'sse' ? 'HTTP+SSE' : 'streamable HTTP'}: mcp add --transport verifies it, a run calls get-sum${transport === 'sse' ? '' : '; both sessions are ended (DELETE)'}`,
      async () => {
        const http = await startEverythingHttp(transport);
        httpServers.push(http);
        const { server, run } = await setup([{ toolCalls: [{ id: 'sum', name: 'mcp__web__get-sum', arguments: { a: 2, b: 40 } }] }, { text: 'It is 42.' }]);
        const added = await run(['mcp', 'add', '--transport', transport === 'sse' ? 'sse' : 'http', 'web', http.url]);
        expect(added.code, added.stderr).toBe(0);
        expect(added.stdout).toContain(`added web (${transport === 'sse' ? 'sse' : 'http'}):`);
        expect(addedTools(added.stdout)).toEqual(expect.arrayContaining(['echo', 'get-sum']));

        const ran = await run(task('add two and forty'), RUN_ENV);
        expect(ran.code, ran.stderr).toBe(0);
        expect(ran.stdout.trim()).toBe('It is 42.');
        expect(offered(server.requests[0])).toContain('mcp__web__get-sum');
        expect(toolResult(server.requests[1], 'sum')).toBe('The sum of 2 and 40 is 42.');
        if (transport === 'streamableHttp') {
          // mcp add's check and the run each opened a session and ended it (DELETE) when done.
          const count = (pattern: RegExp) => http.log().match(pattern)?.length ?? 0;
          await waitFor(() => count(/Received session termination request/g) === 2, 'the server to log two ended sessions');
          expect(count(/Session initialized with ID/g)).toBe(2);
        }
      },
      TIMEOUT,
    );
  }

  it(
    'filesystem over stdio rooted at a temp dir: a file inside is read; a path outside is refused by the server and the refusal reaches the model',
    async () => {
      const { server, run, home } = await setup([
        // Steps run when the requests come, after the directory below is known.
        () => ({ toolCalls: [{ id: 'inside', name: 'mcp__files__read_text_file', arguments: { path: join(allowed, 'notes.txt') } }] }),
        () => ({ toolCalls: [{ id: 'outside', name: 'mcp__files__read_text_file', arguments: { path: outsideFile } }] }),
        { text: 'Read one, refused one.' },
      ]);
      const allowed = join(home.root, 'allowed');
      mkdirSync(allowed);
      writeFileSync(join(allowed, 'notes.txt'), 'the reference server read this line\n');
      const outsideFile = join(home.root, 'secret.txt');
      writeFileSync(outsideFile, 'never shown\n');

      const added = await run(['mcp', 'add', 'files', '--', process.execPath, referenceServer.filesystem, allowed]);
      expect(added.code, added.stderr).toBe(0);
      expect(addedTools(added.stdout)).toEqual(expect.arrayContaining(['read_text_file', 'list_allowed_directories']));

      const ran = await run(task('read my notes'), RUN_ENV);
      expect(ran.code, ran.stderr).toBe(0);
      expect(ran.stdout.trim()).toBe('Read one, refused one.');
      expect(toolResult(server.requests[1], 'inside')).toBe('the reference server read this line\n');
      const refused = toolResult(server.requests[2], 'outside');
      expect(refused).toContain('Access denied - path outside allowed directories');
      expect(refused).not.toContain('never shown');
    },
    TIMEOUT,
  );

  it(
    'memory over stdio, its file in a temp dir: create_entities then read_graph in one run; the second result holds the entity',
    async () => {
      const entity = { name: 'Ada Lovelace', entityType: 'person', observations: ['wrote the first published program'] };
      const { server, run, home } = await setup([
        { toolCalls: [{ id: 'create', name: 'mcp__memory__create_entities', arguments: { entities: [entity] } }] },
        { toolCalls: [{ id: 'read', name: 'mcp__memory__read_graph', arguments: {} }] },
        { text: 'Remembered.' },
      ]);
      const memoryFile = join(home.root, 'memory.jsonl');
      const added = await run(['mcp', 'add', 'memory', '-e', `MEMORY_FILE_PATH=${memoryFile}`, '--', process.execPath, referenceServer.memory]);
      expect(added.code, added.stderr).toBe(0);
      expect(addedTools(added.stdout)).toEqual(expect.arrayContaining(['create_entities', 'read_graph']));

      const ran = await run(task('remember Ada'), RUN_ENV);
      expect(ran.code, ran.stderr).toBe(0);
      expect(ran.stdout.trim()).toBe('Remembered.');
      expect(toolResult(server.requests[1], 'create')).toContain('"name": "Ada Lovelace"');
      const graph = JSON.parse(toolResult(server.requests[2], 'read')) as { entities: Array<Record<string, unknown>> };
      expect(graph.entities).toEqual([expect.objectContaining(entity)]);
      expect(readFileSync(memoryFile, 'utf8')).toContain('Ada Lovelace');
      expect(existsSync(join(referenceServer.memory, '..', 'memory.jsonl'))).toBe(false);
    },
    TIMEOUT,
  );
});
