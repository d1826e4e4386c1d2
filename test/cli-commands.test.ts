import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UsageError } from '../src/cli/args/cli-args.js';
import { SHARED_OPTIONS } from '../src/cli/args/command-options.js';
import { COMMANDS } from '../src/cli/command-registry.js';
import { RUN_OPTIONS } from '../src/cli/commands/run/run-options.js';
import { parseCliArgs, SETTING_OPTIONS } from '../src/cli/parse-command-line.js';
import { startChatServer, type ChatServer } from './support/chat-server.js';
import { homeEnv, spawnCli, type Ran } from './support/cli-process.js';

const home = mkdtempSync(join(tmpdir(), 'vibe-cli-commands-'));
let chat: ChatServer;
beforeAll(async () => {
  chat = await startChatServer([{ text: 'fine' }]);
});
afterAll(async () => {
  await chat.close();
  rmSync(home, { recursive: true, force: true });
});

/** The built CLI with a model configured: anything that became a task would reach the chat server. */
function cli(args: string[]): Promise<Ran> {
  return spawnCli(args, { cwd: home, env: { ...homeEnv(home), OPENAI_API_KEY: 'sk-test', OPENAI_BASE_URL: chat.url, VIBE_MODEL: 'test-model' } });
}

describe('a command line that refuses to guess (built CLI, a live model server)', () => {
  it.each([
    [['sesions'], '"sesions" is not a command (did you mean "vibe-agent sessions"?)'],
    [['doctr'], '"doctr" is not a command (did you mean "vibe-agent doctor"?)'],
    [['Skills'], 'did you mean "vibe-agent skills"?'],
    [['trace', 'nosuch'], '"nosuch" is not a session'],
    [['mcp', 'frobnicate'], '"vibe-agent mcp" has no word "frobnicate"; it takes list, get, add, add-json, remove, serve'],
    [['mcp', 'lst'], '(did you mean "mcp list"?)'],
    [['memory', 'forgt', 'x'], '(did you mean "memory forget"?)'],
    [['sessions', 'from', 'yesterday'], '"vibe-agent sessions" takes no words (got "from yesterday"). To ask the model instead, quote the whole prompt: vibe-agent "sessions from yesterday"'],
    [['rewind', 'now'], '"vibe-agent rewind" takes no words'],
    [['fix the bug', '--html', 'page.html'], '--html only applies to "vibe-agent trace"; see vibe-agent trace --help.'],
    [['sessions', '--continue'], '--continue only applies to a task (vibe-agent "prompt")'],
    [['index', '--to', '3'], '--to only applies to "vibe-agent rewind"'],
    [['--help', 'sesions'], '--help takes a command or "all", not "sesions" (did you mean "sessions"?)'],
  ])('%j is a usage error with a suggestion (exit 2), and no request reaches the model', async (args, message) => {
    const ran = await cli(args);
    expect(ran.stderr).toContain(message);
    expect(ran.code).toBe(2);
    expect(ran.stdout).toBe('');
    expect(chat.requests).toHaveLength(0);
  });

  it('a prompt that starts with a command word, quoted as one argument, is a task', async () => {
    const ran = await cli(['--no-session', 'index the files by size']);
    expect(ran.stderr).toBe('');
    expect(ran.code).toBe(0);
    expect(ran.stdout).toBe('fine\n');
    expect(chat.requests).toHaveLength(1);
    expect(JSON.stringify(chat.requests[0]!.messages.at(-1))).toContain('index the files by size');
  });
});

describe('help that fits', () => {
  it('--help is one screen (≤ 40 lines, ≤ 110 columns) naming every command and pointing to COMMAND --help', async () => {
    const ran = await cli(['--help']);
    expect(ran.code).toBe(0);
    const lines = ran.stdout.trimEnd().split('\n');
    expect(lines.length).toBeLessThanOrEqual(40);
    expect(lines.filter((line) => [...line].length > 110)).toEqual([]);
    for (const command of COMMANDS) expect(lines.some((line) => line.startsWith(`  ${command.name} `)), command.name).toBe(true);
    for (const name of ['rewind', 'mcp', 'replay', 'lsp', 'acp']) expect(ran.stdout).toContain(`  ${name} `);
    expect(ran.stdout).toContain('vibe-agent COMMAND --help');
    expect(ran.stdout).toContain('quote a task that starts with one');
    expect(ran.stdout).not.toContain('--rewind-to');
  });

  it.each(COMMANDS.map((command) => [command.name, command] as const))('vibe-agent %s --help prints its usage, words and flags (exit 0)', async (name, command) => {
    const before = chat.requests.length;
    for (const args of [[name, '--help'], ['--help', name]]) {
      const ran = await cli(args);
      expect(ran.code).toBe(0);
      expect(ran.stdout).toContain(`Usage:\n  vibe-agent ${name}`);
      for (const flag of command.flags) expect(ran.stdout).toContain(`--${flag.flag}`);
      for (const word of command.words ?? []) expect(ran.stdout).toContain(`  ${word.usage ?? word.word} `);
    }
    expect(chat.requests).toHaveLength(before);
  });

  it('--help all lists every setting and every shared and task flag', async () => {
    const ran = await cli(['--help', 'all']);
    expect(ran.code).toBe(0);
    for (const option of [...SETTING_OPTIONS, ...SHARED_OPTIONS, ...RUN_OPTIONS]) expect(ran.stdout).toContain(`--${option.flag}`);
  });
});

describe('the specs', () => {
  it('give a flag one meaning wherever it is taken (the parser finds the command word with all of them)', () => {
    const seen = new Map<string, string>();
    const shorts = new Map<string, string>();
    for (const option of [...SETTING_OPTIONS, ...SHARED_OPTIONS, ...RUN_OPTIONS, ...COMMANDS.flatMap((command) => command.flags)]) {
      const shape = `${option.value ? 'value' : 'switch'}${option.short ? ` -${option.short}` : ''}`;
      expect(seen.get(option.flag) ?? shape, option.flag).toBe(shape);
      seen.set(option.flag, shape);
      if (option.short) {
        expect(shorts.get(option.short) ?? option.flag, `-${option.short}`).toBe(option.flag);
        shorts.set(option.short, option.flag);
      }
    }
  });

  it('parse each command with its own words and flags, after any settings flag', () => {
    expect(parseCliArgs(['--model', 'm', 'rewind', '--to', '2', '--files-only'])).toMatchObject({ command: 'rewind', model: 'm', rewind: { to: 2, files: true, conversation: false } });
    expect(parseCliArgs(['memory', 'forget', 'the', 'cat', '--user'])).toMatchObject({ command: 'memory', memoryArgs: ['forget', 'the', 'cat'], user: true });
    expect(parseCliArgs(['eval', '--runs', '3', '-o', 'out.jsonl'])).toMatchObject({ command: 'eval', evalArgs: [], evalFlags: { runs: '3', output: 'out.jsonl' } });
    expect(parseCliArgs(['demo', '--compare-protocols'])).toMatchObject({ command: 'demo', compareProtocols: true });
    expect(parseCliArgs(['replay', 'run.jsonl', '--against'])).toMatchObject({ command: 'replay', replay: { session: 'run.jsonl', against: true } });
    expect(parseCliArgs(['--', 'sessions', 'are', 'slow'])).toMatchObject({ command: 'run', prompt: 'sessions are slow' });
    expect(parseCliArgs(['-p', 'sesions'])).toMatchObject({ command: 'run', prompt: 'sesions' });
    expect(parseCliArgs(['refactor'])).toMatchObject({ command: 'run', prompt: 'refactor' });
    expect(() => parseCliArgs(['sessions', '--', 'x'])).toThrow('takes nothing after "--"');
  });

  it('a lone word one typo away from a command (a letter changed, dropped, added or swapped) is never a task', () => {
    const names = COMMANDS.map((command) => command.name as string);
    const typo = fc.tuple(fc.constantFrom(...names), fc.nat(), fc.constantFrom('change', 'drop', 'add', 'swap'), fc.constantFrom(...'abcdefghijklmnopqrstuvwxyz')).map(([name, at, kind, letter]) => {
      const i = at % name.length;
      if (kind === 'change') return name.slice(0, i) + letter + name.slice(i + 1);
      if (kind === 'drop') return name.slice(0, i) + name.slice(i + 1);
      if (kind === 'add') return name.slice(0, i) + letter + name.slice(i);
      return i + 1 < name.length ? name.slice(0, i) + name[i + 1] + name[i] + name.slice(i + 2) : name.slice(0, i) + letter;
    });
    fc.assert(
      fc.property(typo, (word) => {
        if (names.includes(word)) return;
        expect(() => parseCliArgs([word]), word).toThrow(UsageError);
        expect(() => parseCliArgs([word]), word).toThrow(/is not a command \(did you mean "vibe-agent [a-z]+"\?\)/);
      }),
    );
  });
});
