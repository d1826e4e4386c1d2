import { describe, expect, it } from 'vitest';
import { READ_OUTPUT_TOOL } from '../src/context/read-output-name.js';
import { CLAUDE_SHAPE } from '../src/hooks/claude-shape.js';
import { GEMINI_SHAPE } from '../src/hooks/gemini-shape.js';
import type { PeerShape } from '../src/hooks/peer-shape.js';
import { TOOL_SPECS } from '../src/tools/tool-specs.js';

// Every built-in tool: the generated specs, plus those made per run (subagents, paged outputs, a configured search service).
const builtIn: Record<string, string[]> = {
  ...Object.fromEntries(Object.values(TOOL_SPECS).map((spec) => [spec.name, Object.keys((spec.parameters as { properties?: object }).properties ?? {})])),
  task: ['description', 'prompt', 'agent'],
  [READ_OUTPUT_TOOL]: ['id', 'offset'],
  web_search: ['query', 'count'],
};

describe.each([
  ['Claude Code', CLAUDE_SHAPE],
  ['Gemini CLI', GEMINI_SHAPE],
] as Array<[string, PeerShape]>)("%s's names for our tools", (_peer, shape) => {
  it('cover every built-in tool: mapped, or listed as keeping our name', () => {
    for (const tool of Object.keys(builtIn)) expect([...shape.mapped, ...shape.keepsOurName], tool).toContain(tool);
    for (const tool of shape.keepsOurName) expect(shape.mapped).not.toContain(tool);
  });

  it('go both ways: tool names and every argument come back as they went', () => {
    const peerNames = new Set<string>();
    for (const [tool, fields] of Object.entries(builtIn)) {
      const name = shape.toolName(tool);
      if (shape.mapped.includes(tool)) {
        expect(shape.ourTool(name)).toBe(tool);
        expect(peerNames.has(name), `${name} names two tools`).toBe(false);
        peerNames.add(name);
      } else expect(name).toBe(tool);
      // Absolute values: a relative path is made absolute on the way out, as the peers send it.
      const input = Object.fromEntries(fields.map((field, i) => [field, `/ws/value-${i}`]));
      const peer = shape.toPeer(tool, input, '/ws');
      expect(Object.keys(peer)).toHaveLength(fields.length);
      expect(shape.fromPeer(tool, peer)).toEqual(input);
    }
  });
});

describe("Claude Code's shapes", () => {
  it('name the fields as Claude Code does, with absolute file paths', () => {
    expect(CLAUDE_SHAPE.toPeer('edit_file', { path: 'src/a.ts', old_string: 'a', new_string: 'b' }, '/ws')).toEqual({ file_path: '/ws/src/a.ts', old_string: 'a', new_string: 'b' });
    expect(CLAUDE_SHAPE.toPeer('bash', { command: 'ls', timeout_ms: 5000 }, '/ws')).toEqual({ command: 'ls', timeout: 5000 });
    expect(CLAUDE_SHAPE.toPeer('grep', { pattern: 'x', ignore_case: true }, '/ws')).toEqual({ pattern: 'x', '-i': true });
    expect(CLAUDE_SHAPE.toPeer('task', { description: 'd', prompt: 'p', agent: 'explorer' }, '/ws')).toEqual({ description: 'd', prompt: 'p', subagent_type: 'explorer' });
    expect(CLAUDE_SHAPE.toolName('mcp__docs__search')).toBe('mcp__docs__search');
    expect(CLAUDE_SHAPE.fromPeer('write_file', { file_path: '/ws/x', content: 'y' })).toEqual({ path: '/ws/x', content: 'y' });
  });
});
