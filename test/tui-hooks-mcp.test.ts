/**
 * Hooks and MCP prompts in the interactive session, in a real terminal (tmux): the Stop hook acts
 * on a block as a one-shot run does (bounded), SessionStart and UserPromptSubmit run with the
 * prompts typed, and an MCP server's prompt is listed by /help and completed by Tab.
 */
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { TmuxPane } from './support/tmux.js';
import { cleanupAfterEach, requireTmux } from './support/tmux.js';
import { tuiSession } from './support/tui-session.js';

const cleanups = cleanupAfterEach();
requireTmux();

const MCP_SCRIPT = join(import.meta.dirname, 'support', 'mcp-test-server.mjs');
const command = (path: string) => ({ type: 'command', command: path });

/** A folder for the hook scripts and their logs, and `xdg/vibe-agent/config.json` holding `config` (passed as XDG_CONFIG_HOME). */
function hookHome(prefix: string, config: (dir: string) => unknown): { dir: string; configHome: string } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  const configHome = join(dir, 'xdg');
  mkdirSync(join(configHome, 'vibe-agent'), { recursive: true });
  writeFileSync(join(configHome, 'vibe-agent', 'config.json'), JSON.stringify(config(dir)));
  return { dir, configHome };
}

function script(home: string, name: string, body: string): string {
  const path = join(home, name);
  writeFileSync(path, `#!/bin/sh\n${body}\n`);
  chmodSync(path, 0o755);
  return path;
}

async function typeLine(pane: TmuxPane, text: string): Promise<void> {
  await pane.send([text], { literal: true });
  await pane.send(['Enter']);
}

/** The status line says "working" while a turn runs. */
const idle = (screen: string) => !/· working\b/.test(screen.trimEnd().split('\n').at(-1) ?? '');
const jsonLines = (path: string) => readFileSync(path, 'utf8').split('\n').filter((line) => line.trim()).map((line) => JSON.parse(line));

describe('hooks and MCP prompts in the interactive session', () => {
  it('a Stop hook that blocks sends the agent back with its reason, at most 3 times a prompt; the next prompt starts the count again', async () => {
    let stops = '';
    const { configHome } = hookHome('vibe-tui-stop-', (dir) => {
      stops = join(dir, 'stops.jsonl');
      // Blocks its first four calls (exit 2, then JSON), lets the fifth stop.
      const hook = script(
        dir,
        'not-done',
        `cat >> "${stops}"; echo >> "${stops}"\nn=$(grep -c . "${stops}")\nif [ "$n" -eq 1 ]; then echo "run the tests first" >&2; exit 2; fi\nif [ "$n" -le 4 ]; then echo '{"decision":"block","reason":"still not done"}'; fi\nexit 0`,
      );
      return { hooks: { Stop: [{ hooks: [command(hook)] }] } };
    });
    const { pane, server } = await tuiSession(cleanups, [{ text: 'all done' }, { text: 'tests pass' }, { text: 'really done' }, { text: 'truly done' }, { text: 'second answer' }], {
      args: ['--no-session'],
      width: 200,
      extraEnv: { XDG_CONFIG_HOME: configHome },
    });
    await pane.waitFor('›');
    await typeLine(pane, 'fix it');
    const screen = await pane.waitFor((s) => s.includes('the run ends anyway') && idle(s), 60_000);
    expect(screen).toContain('a Stop hook sent the agent back to work: run the tests first');
    expect(screen).toContain('a Stop hook blocked the stop again after 3 continuations; the run ends anyway (its reason: still not done)');
    expect(screen).toContain('truly done');
    expect(server.requests).toHaveLength(4);
    expect(server.requests[1]!.messages.slice(-2)).toMatchObject([{ role: 'assistant', content: 'all done' }, { role: 'user', content: 'run the tests first' }]);
    expect(server.requests[2]!.messages.at(-1)).toMatchObject({ role: 'user', content: 'still not done' });

    await typeLine(pane, 'and now?');
    await pane.waitFor((s) => s.includes('second answer') && idle(s), 60_000);
    // The fifth call let it stop; the conversation went on from the continued one.
    expect(server.requests).toHaveLength(5);
    expect(server.requests[4]!.messages.slice(-2)).toMatchObject([{ role: 'assistant', content: 'truly done' }, { role: 'user', content: 'and now?' }]);
    const calls = jsonLines(stops);
    expect(calls.map((call) => call.stop_hook_active)).toEqual([false, true, true, true, false]);
    expect(calls[0]).toMatchObject({ hook_event_name: 'Stop', stop_reason: 'answered' });
  });

  it('an MCP prompt is listed by /help, completed by Tab from "/mcp__" and sent; SessionStart runs once, UserPromptSubmit with each prompt', async () => {
    let sessions = '';
    let prompts = '';
    const { configHome } = hookHome('vibe-tui-hooks-', (dir) => {
      sessions = join(dir, 'sessions.jsonl');
      prompts = join(dir, 'prompts.jsonl');
      return {
        mcpServers: { notes: { command: process.execPath, args: [MCP_SCRIPT] } },
        hooks: {
          SessionStart: [{ hooks: [command(`cat >> "${sessions}"; echo >> "${sessions}"`)] }],
          UserPromptSubmit: [{ hooks: [command(`cat >> "${prompts}"; echo >> "${prompts}"; echo "the build uses make"`)] }],
        },
      };
    });
    const { pane, server } = await tuiSession(cleanups, [{ text: 'Reviewed.' }, { text: 'Bye.' }], { args: ['--no-session'], extraEnv: { XDG_CONFIG_HOME: configHome } });
    await pane.waitFor('›');
    // The server starts beside the session: ask /mcp until its table shows it ready. Ctrl-L clears
    // the screen first, so the table read is this /mcp's, not the one before it.
    for (let attempt = 0; ; attempt++) {
      await pane.send(['C-l']);
      await pane.waitFor((s) => !/^notes\s/m.test(s));
      await typeLine(pane, '/mcp');
      const screen = await pane.waitFor(/^notes\s+\S+/m, 30_000);
      const state = [...screen.matchAll(/^notes\s+(\S+)/gm)].at(-1)![1];
      if (state === 'ready') break;
      expect(state, `the MCP server did not become ready:\n${screen}`).toBe('starting');
      expect(attempt).toBeLessThan(200);
    }
    await typeLine(pane, '/help');
    await pane.waitFor(/\/mcp__notes__review <file> \[focus\]\s+Asks for a review of one file\./);
    await pane.send(['/mcp__'], { literal: true });
    await pane.send(['Tab']);
    await pane.waitFor((s) => /^› \/mcp__notes__review\s*$/m.test(s));
    await typeLine(pane, 'src/a.ts "error handling"');
    await pane.waitFor((s) => s.includes('Reviewed.') && idle(s), 60_000);
    expect(server.requests[0]!.messages.at(-1)).toMatchObject({ role: 'user', content: 'Review src/a.ts, focusing on error handling.\n\n<hook-context>\nthe build uses make\n</hook-context>' });

    await typeLine(pane, 'thanks');
    await pane.waitFor((s) => s.includes('Bye.') && idle(s), 60_000);
    expect(server.requests[1]!.messages.at(-1)).toMatchObject({ role: 'user', content: 'thanks\n\n<hook-context>\nthe build uses make\n</hook-context>' });
    const started = jsonLines(sessions);
    expect(started).toHaveLength(1);
    expect(started[0]).toMatchObject({ hook_event_name: 'SessionStart', source: 'startup' });
    expect(jsonLines(prompts).map((input) => [input.hook_event_name, input.prompt])).toEqual([
      ['UserPromptSubmit', 'Review src/a.ts, focusing on error handling.'],
      ['UserPromptSubmit', 'thanks'],
    ]);
  });
});
