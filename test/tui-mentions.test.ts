/**
 * `@` completion, `!command` and /init in the built CLI's interactive session, in a tmux pane
 * against the local Chat Completions server.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cleanupAfterEach, requireTmux } from './support/tmux.js';
import { tuiSession } from './support/tui-session.js';
import { waitFor } from './support/cli-process.js';

const cleanups = cleanupAfterEach();
requireTmux();

const userText = (body: { messages: Array<{ role: string; content?: unknown }> }) => String(body.messages.filter((m) => m.role === 'user').at(-1)!.content);

describe('mentions, ! commands and /init in the TUI (tmux)', () => {
  it('Tab completes @path (a list when ambiguous) and the sent prompt carries the file', async () => {
    const { server, pane, workspace } = await tuiSession(cleanups, [{ text: 'Read it.' }], { args: ['--tools', 'read_file,list_files'] });
    mkdirSync(join(workspace, 'src'));
    writeFileSync(join(workspace, 'src', 'alpha.ts'), 'export const alpha = 1;\n');
    writeFileSync(join(workspace, 'src', 'alpine.ts'), 'export const alpine = 2;\n');
    await pane.waitFor('/help for commands');
    await pane.send(['explain @sr'], { literal: true });
    await pane.send(['Tab']);
    await pane.waitFor('explain @src/');
    await pane.send(['al'], { literal: true });
    await pane.send(['Tab']);
    const listed = await pane.waitFor('alpha.ts  alpine.ts');
    expect(listed).toContain('explain @src/alp');
    await pane.send(['h'], { literal: true });
    await pane.send(['Tab']);
    await pane.waitFor('explain @src/alpha.ts');
    await pane.send(['please'], { literal: true });
    await pane.send(['Enter']);
    const answered = await pane.waitFor('Read it.');
    expect(answered).toContain('⎿ attached @src/alpha.ts (1 line, 24 bytes)');
    expect(userText(server.requests[0]!)).toBe(
      'explain @src/alpha.ts please\n\n<attachments>\n<file path="src/alpha.ts" via="read_file">\n     1\texport const alpha = 1;\n[src/alpha.ts: 1 line, 24 bytes. Showing lines 1-1.]\n</file>\n</attachments>',
    );
  });

  it('!command runs through the bash tool without asking, shows its output and goes to the model with the next prompt', async () => {
    const { server, pane } = await tuiSession(cleanups, [{ text: 'It printed the marker.' }], { args: ['--tools', 'bash'] });
    await pane.waitFor('/help for commands');
    await pane.send(['!echo typed-$((6*7))'], { literal: true });
    await pane.send(['Enter']);
    const ran = await pane.waitFor('goes to the model with your next prompt');
    expect(ran).toContain('typed-42');
    expect(ran).not.toContain('Allow bash?');
    expect(server.requests).toHaveLength(0);
    await pane.send(['what did it print?'], { literal: true });
    await pane.send(['Enter']);
    await pane.waitFor('It printed the marker.');
    expect(userText(server.requests[0]!)).toBe('<user-shell command="echo typed-$((6*7))">\ntyped-42\n</user-shell>\n\nwhat did it print?');
  });

  it('a denied !command is refused and nothing goes to the model', async () => {
    const config = mkdtempSync(join(tmpdir(), 'vibe-config-'));
    cleanups.push(() => rmSync(config, { recursive: true, force: true }));
    mkdirSync(join(config, 'vibe-agent'));
    writeFileSync(join(config, 'vibe-agent', 'config.json'), JSON.stringify({ permissions: { deny: ['bash(rm *)'] } }));
    const { server, pane, workspace } = await tuiSession(cleanups, [{ text: 'unused' }], { args: ['--tools', 'bash'], extraEnv: { XDG_CONFIG_HOME: config } });
    writeFileSync(join(workspace, 'keep.txt'), 'kept');
    await pane.waitFor('/help for commands');
    await pane.send(['!rm keep.txt'], { literal: true });
    await pane.send(['Enter']);
    await pane.waitFor('✗ Denied: the rule "bash(rm *)" in permissions.deny forbids this call.');
    expect(existsSync(join(workspace, 'keep.txt'))).toBe(true);
    expect(server.requests).toHaveLength(0);
  });

  it('Ctrl-C stops a running !command and nothing of it goes to the model', async () => {
    const { server, pane } = await tuiSession(cleanups, [{ text: 'Nothing from the shell.' }], { args: ['--tools', 'bash'] });
    await pane.waitFor('/help for commands');
    await pane.send(['!echo started-it; sleep 60'], { literal: true });
    await pane.send(['Enter']);
    await pane.waitFor('! echo started-it; sleep 60');
    await pane.send(['C-c']);
    await pane.waitFor('⊘ Cancelled; nothing goes to the model.');
    await pane.send(['hello'], { literal: true });
    await pane.send(['Enter']);
    await pane.waitFor('Nothing from the shell.');
    expect(userText(server.requests[0]!)).toBe('hello');
  });

  it('/init in auto-edit mode still shows the AGENTS.md write as a diff and writes it only on yes', async () => {
    const agents = '# Repository guidelines\n\n- Test with `npm test`.\n';
    const { server, pane, workspace } = await tuiSession(
      cleanups,
      [{ toolCalls: [{ name: 'write_file', arguments: { path: 'AGENTS.md', content: agents } }] }, { text: 'Wrote AGENTS.md.' }],
      { args: ['--tools', 'read_file,write_file', '--permission-mode', 'auto-edit'] },
    );
    await pane.waitFor('/help for commands');
    await pane.send(['/init'], { literal: true });
    await pane.send(['Enter']);
    const asking = await pane.waitFor('Allow write_file?');
    expect(asking).toContain('/init shows its write before it is made');
    expect(asking).toContain('+- Test with `npm test`.');
    expect(existsSync(join(workspace, 'AGENTS.md'))).toBe(false);
    expect(userText(server.requests[0]!)).toContain('Write or improve AGENTS.md');
    await pane.send(['y'], { literal: true });
    await pane.waitFor('Wrote AGENTS.md.');
    await waitFor(() => existsSync(join(workspace, 'AGENTS.md')), 'AGENTS.md');
    expect(readFileSync(join(workspace, 'AGENTS.md'), 'utf8')).toBe(agents);
  });
});
