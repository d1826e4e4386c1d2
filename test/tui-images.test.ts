/**
 * Pasting an image path into the interactive prompt (under tmux, over the real terminal): the path
 * becomes a chip, and the image goes to the model with the prompt that holds it.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { writePng } from './support/image-fixtures.js';
import { cleanupAfterEach, requireTmux } from './support/tmux.js';
import { tuiSession } from './support/tui-session.js';

const cleanups = cleanupAfterEach();
requireTmux();

describe('an image path pasted into the interactive prompt', () => {
  it('shows [image: name W×H] and sends the image with the prompt', async () => {
    const { server, pane, home } = await tuiSession(cleanups, [{ text: 'A small gradient.' }], { args: ['--no-session'], width: 100, height: 30 });
    // Outside the workspace, with a space in its name, as a file manager drops it.
    const png = await writePng(join(home, 'my shot.png'), 64, 48);
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
