/**
 * Pasting an image path into the interactive prompt (under tmux, over the real terminal): the path
 * becomes a chip, and the image goes to the model with the prompt that holds it.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startChatServer } from './support/chat-server.js';
import { CLI } from './support/cli-process.js';
import { writePng } from './support/image-fixtures.js';
import { cleanupAfterEach, requireTmux, startInTmux } from './support/tmux.js';

const cleanups = cleanupAfterEach();
requireTmux();

describe('an image path pasted into the interactive prompt', () => {
  it('shows [image: name W×H] and sends the image with the prompt', async () => {
    const server = await startChatServer([{ text: 'A small gradient.' }]);
    cleanups.push(() => server.close());
    const home = mkdtempSync(join(tmpdir(), 'vibe-tui-images-'));
    cleanups.push(() => rmSync(home, { recursive: true, force: true }));
    const workspace = join(home, 'project');
    mkdirSync(workspace);
    // Outside the workspace, with a space in its name, as a file manager drops it.
    const png = await writePng(join(home, 'my shot.png'), 64, 48);
    const pane = await startInTmux([process.execPath, CLI, '--no-session'], {
      cwd: workspace,
      width: 100,
      height: 30,
      env: {
        PATH: process.env.PATH ?? '/usr/bin:/bin',
        HOME: home,
        TERM: 'tmux-256color',
        XDG_CONFIG_HOME: join(home, 'config'),
        XDG_DATA_HOME: join(home, 'data'),
        OPENAI_API_KEY: 'test-key',
        OPENAI_BASE_URL: server.url,
        VIBE_MODEL: 'test-model',
      },
    });
    cleanups.push(() => pane.kill());
    await pane.waitFor('/help');
    await pane.paste(join(home, 'my\\ shot.png'));
    await pane.waitFor('[image: my shot.png 64×48]');
    await pane.send(['what is this?'], { literal: true });
    await pane.send(['Enter']);
    await server.waitForRequest(1);
    await pane.waitFor('A small gradient.');
    expect(server.violations).toEqual([]);
    const user = server.requests[0]!.messages.at(-1)!;
    expect(user.content).toEqual([
      { type: 'text', text: '[image: my shot.png 64×48] what is this?' },
      { type: 'image_url', image_url: { url: `data:image/png;base64,${png.toString('base64')}` } },
    ]);
  }, 90_000);
});
