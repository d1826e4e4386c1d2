import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { ConfigTextError, parseJsonText } from '../src/contracts/config-text.js';
import { parseTomlText } from '../src/contracts/toml-text.js';
import { closestName } from '../src/contracts/did-you-mean.js';
import { jsonErrorOffset } from '../src/contracts/json-error-offset.js';
import { cliHome, type CliHome } from './support/cli-process.js';

const homes: CliHome[] = [];
afterEach(() => {
  for (const home of homes.splice(0)) home.cleanup();
});

/** Runs the built CLI with `text` as the workspace's project config, or as the user's config. */
async function runWithConfig(text: string, where: 'project' | 'user' = 'project') {
  const home = cliHome();
  homes.push(home);
  const dir = where === 'project' ? join(home.workspace, '.vibe-agent') : join(home.env.XDG_CONFIG_HOME, 'vibe-agent');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'config.json'), text);
  return home.run(['task'], { OPENAI_API_KEY: 'k' });
}

describe('a config file with a mistake: where it is, and what was meant', () => {
  it('malformed JSON: the line and column, the line itself with a caret, and what was expected there', async () => {
    const ran = await runWithConfig('{\n  "model": "gpt-4.1"\n  "maxTurns": 5\n}\n');
    expect(ran.code).toBe(2);
    expect(ran.stderr).toContain('config.json is not valid JSON at line 3, column 3: expected "," or "}", found "\\""');
    expect(ran.stderr).toContain('3 |   "maxTurns": 5\n  |   ^');
    expect(ran.stderr).not.toMatch(/position \d+/);
  });

  it('a trailing comma, a comment, a bare word: each named at its line and column', async () => {
    const comma = await runWithConfig('{\n  "maxTurns": 5,\n}');
    expect(comma.stderr).toContain('at line 3, column 1: a comma before "}": JSON allows no trailing comma');
    const comment = await runWithConfig('{\n  // my model\n  "model": "x"\n}');
    expect(comment.stderr).toContain('at line 2, column 3: expected a "key" in double quotes, found "/": JSON allows no comments');
    const word = await runWithConfig('{ "maxTurns": many }');
    expect(word.stderr).toContain('at line 1, column 15: expected a value');
  });

  it('unknown keys (top level and nested) and an unknown provider get "did you mean", with their lines', async () => {
    const ran = await runWithConfig('{\n  "modle": "x",\n  "provider": "antropic",\n  "permissions": { "alow": [] }\n}\n', 'user');
    expect(ran.code).toBe(2);
    expect(ran.stderr).toContain('  line 2, column 3: unknown key "modle" (did you mean "model"?)');
    expect(ran.stderr).toContain('  line 3, column 3: Unknown provider "antropic" (did you mean "anthropic"?)');
    expect(ran.stderr).toContain('  line 4, column 20: unknown key "permissions.alow" (did you mean "allow"?)');
  });

  it('the same suggestion for a provider given by flag and for a mistyped flag', async () => {
    const home = cliHome();
    homes.push(home);
    const provider = await home.run(['--provider', 'antropic', 'task'], { OPENAI_API_KEY: 'k' });
    expect(provider.code).toBe(2);
    expect(provider.stderr).toContain('Unknown provider "antropic" (did you mean "anthropic"?)');
    const flag = await home.run(['--modle', 'x', 'task']);
    expect(flag.stderr).toContain('unknown option --modle (did you mean --model?)');
  });
});

describe('parseJsonText / parseTomlText (every config reader: ours, MCP server lists, foreign hooks)', () => {
  it('TOML errors come in the same shape: line, column, reason, excerpt', () => {
    const error = (() => {
      try {
        parseTomlText('[mcp_servers.docs]\ncommand = "node\nargs = []\n');
      } catch (thrown) {
        return thrown;
      }
      return undefined;
    })();
    expect(error).toBeInstanceOf(ConfigTextError);
    expect(error).toMatchObject({ format: 'TOML', line: 2, message: expect.stringMatching(/^line 2, column \d+: /) });
  });

  it('valid JSON always parses; text JSON.parse refuses is always located inside the text', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.integer({ min: 0, max: 2 }), (value, indent) => {
        const text = JSON.stringify(value, null, indent);
        expect(jsonErrorOffset(text)).toBeUndefined();
        expect(parseJsonText(text)).toEqual(JSON.parse(text));
      }),
    );
    fc.assert(
      fc.property(fc.jsonValue(), fc.nat(), fc.constantFrom(',', '}', ']', '{', '"', 'x', '/', ':', '\n', '\\'), (value, at, junk) => {
        const valid = JSON.stringify(value, null, 1);
        const text = valid.slice(0, at % (valid.length + 1)) + junk + valid.slice(at % (valid.length + 1));
        let parses = true;
        try {
          JSON.parse(text);
        } catch {
          parses = false;
        }
        const found = jsonErrorOffset(text);
        expect(found === undefined).toBe(parses);
        if (found) expect(found.offset).toBeLessThanOrEqual(text.length);
      }),
    );
  });

  it('one suggestion rule: a unique prefix, else the nearest within two edits, never a wild guess', () => {
    expect(closestName('modle', ['model', 'maxTurns'])).toBe('model');
    expect(closestName('antropic', ['anthropic', 'openai'])).toBe('anthropic');
    expect(closestName('perm', ['permissions', 'provider'])).toBe('permissions');
    expect(closestName('xyz', ['model', 'tools'])).toBeUndefined();
    expect(closestName('ab', ['cd'])).toBeUndefined();
  });
});
