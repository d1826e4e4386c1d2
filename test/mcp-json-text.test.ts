import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { withServer, type ReadServers } from '../src/cli/mcp-config-file.js';
import { JsonTextError, scanJson, type JsonNode } from '../src/cli/mcp-json-text.js';

const parses = (text: string) => {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
};
const scans = (text: string) => {
  try {
    scanJson(text);
    return true;
  } catch (error) {
    expect(error).toBeInstanceOf(JsonTextError);
    return false;
  }
};

/** A file as `mcp add` reads it. */
function read(text: string): ReadServers {
  const parsed = JSON.parse(text) as { mcpServers?: Record<string, unknown> };
  return { file: { path: 'config.json', scope: 'user', format: 'vibe-agent', within: 'anywhere' }, text, root: scanJson(text) as JsonNode & { kind: 'object' }, servers: parsed.mcpServers ?? {} };
}

const indent = fc.constantFrom(undefined, 2, 4, '\t');
const entry = fc.record({ command: fc.string(), args: fc.array(fc.string(), { maxLength: 3 }) });
const name = fc.stringMatching(/^[a-z][a-z0-9-]{0,8}$/);

describe('editing a JSON config in place', () => {
  it('scanJson accepts exactly what JSON.parse accepts (JSON, and JSON with one character dropped or inserted)', () => {
    const mangled = fc.tuple(fc.json(), fc.nat(), fc.constantFrom('', ',', '}', '"', ' ', ']', '\\', '\n')).map(([text, at, insert]) => {
      const i = at % (text.length + 1);
      return insert === '' ? text.slice(0, i) + text.slice(i + 1) : text.slice(0, i) + insert + text.slice(i);
    });
    fc.assert(fc.property(fc.oneof(fc.json(), mangled, fc.string()), (text) => {
      expect(scans(text)).toBe(parses(text));
    }), { numRuns: 2000 });
  });

  it('the error names the line and column', () => {
    expect(() => scanJson('{\n  "a": 1,\n  }')).toThrow('at line 3, column 3');
    expect(() => scanJson('{"a": [1, 2')).toThrow('unexpected end of the file');
  });

  it('adding a server means exactly that, whatever the file held and however it was indented; removing it again restores the bytes', () => {
    const others = fc.dictionary(fc.string().filter((key) => key !== 'mcpServers'), fc.jsonValue(), { maxKeys: 4 });
    const servers = fc.option(fc.dictionary(name, entry, { maxKeys: 3 }), { nil: undefined });
    fc.assert(
      fc.property(others, servers, indent, name, entry, (rest, existing, space, added, value): void => {
        fc.pre(existing === undefined || !Object.hasOwn(existing, added));
        const original = `${JSON.stringify(existing === undefined ? rest : { ...rest, mcpServers: existing }, null, space)}\n`;
        const next = withServer(read(original), added, value);
        expect(JSON.parse(next)).toEqual({ ...JSON.parse(original), mcpServers: { ...existing, [added]: value } });
        const back = withServer(read(next), added, undefined);
        if (existing && Object.keys(existing).length > 0) expect(back).toBe(original);
        else expect(JSON.parse(back)).toEqual({ ...JSON.parse(original), mcpServers: {} });
      }),
      { numRuns: 500 },
    );
  });

  it('the new entry follows its siblings: one line each stays one line each, indented stays indented', () => {
    const compact = '{\n  "mcpServers": {\n    "a": { "command": "x" }\n  }\n}\n';
    expect(withServer(read(compact), 'b', { command: 'y' })).toBe('{\n  "mcpServers": {\n    "a": { "command": "x" },\n    "b": {"command":"y"}\n  }\n}\n');
    const fresh = withServer({ ...read('{}'), text: undefined, root: undefined }, 'b', { command: 'y' });
    expect(fresh).toBe('{\n  "mcpServers": {\n    "b": {\n      "command": "y"\n    }\n  }\n}\n');
    const crlf = '{\r\n\t"model": "m"\r\n}\r\n';
    expect(withServer(read(crlf), 'b', { command: 'y' })).toBe('{\r\n\t"model": "m",\r\n\t"mcpServers": {\r\n\t\t"b": {\r\n\t\t\t"command": "y"\r\n\t\t}\r\n\t}\r\n}\r\n');
  });
});
