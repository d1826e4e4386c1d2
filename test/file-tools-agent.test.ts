import { mkdtemp, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createFileTools } from '../src/tools/coding/file-tools.js';
import type { AuthorizeRequest } from '../src/contracts/tool.js';
import { ofType, runScenario } from './support/harness.js';

let ws: string;

beforeEach(async () => {
  ws = await realpath(await mkdtemp(join(tmpdir(), 'vibe-files-agent-')));
});

afterEach(async () => {
  await rm(ws, { recursive: true, force: true });
});

describe('file tools in the agent loop', () => {
  it('reads, misses an edit, corrects it from the closest region, and is asked to approve only the edit that applies', async () => {
    await writeFile(join(ws, 'greet.ts'), 'export function greet(name: string) {\n  return `Hello, ${name}`;\n}\n');
    const asked: AuthorizeRequest['preview'][] = [];
    const { server, result, events } = await runScenario(
      [
        { toolCalls: [{ name: 'read_file', arguments: { path: 'greet.ts' } }] },
        { toolCalls: [{ name: 'edit_file', arguments: { path: 'greet.ts', old_string: 'return `Hi, ${name}`;', new_string: 'return `Hi there, ${name}`;' } }] },
        { toolCalls: [{ name: 'edit_file', arguments: { path: 'greet.ts', old_string: 'return `Hello, ${name}`;', new_string: 'return `Hello there, ${name}`;' } }] },
        { text: 'Done.' },
      ],
      {
        toolList: createFileTools(),
        workspace: ws,
        authorize: async (request) => {
          asked.push(request.preview);
          return { allowed: true };
        },
      },
    );

    expect(result.answer).toBe('Done.');
    expect(await readFile(join(ws, 'greet.ts'), 'utf8')).toBe('export function greet(name: string) {\n  return `Hello there, ${name}`;\n}\n');
    const toolResults = server.requests.map((body) => body.messages.filter((m) => m.role === 'tool').at(-1)?.content);
    expect(toolResults[1]).toContain('     2\t  return `Hello, ${name}`;');
    expect(toolResults[2]).toBe(
      'old_string was not found in greet.ts. greet.ts has not changed since you last read it, so old_string differs from what you read.\n' +
        'The closest match is line 2 (84% similar):\n     2\t  return `Hello, ${name}`;',
    );
    expect(toolResults[3]).toMatch(/^Edited greet.ts: 1 replacement at line 2\.\n--- a\/greet.ts\n/);
    expect(asked).toEqual([{ summary: 'edit greet.ts (1 replacement)', detail: expect.stringContaining('+  return `Hello there, ${name}`;') }]);
    expect(ofType(events, 'tool_call_end').map((e) => e.status)).toEqual(['ok', 'error', 'ok']);
  });
});
