import { readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { startAnthropicServer, type AnthropicServer } from './support/anthropic-server.js';
import { startChatServer, type ChatServer } from './support/chat-server.js';
import { cliHome, CLI_SESSION_TIMEOUT_MS } from './support/cli-process.js';
import { startGeminiServer, type GeminiServer } from './support/gemini-server.js';
import { writeNoisePng, writePng } from './support/image-fixtures.js';
import { imagesDirFor } from '../src/session/session-images.js';

const home = cliHome();
const servers: Array<ChatServer | AnthropicServer | GeminiServer> = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});
afterAll(() => home.cleanup());

const keep = <T extends ChatServer | AnthropicServer | GeminiServer>(server: T): T => (servers.push(server), server);
type Parts = Array<Record<string, unknown>>;

describe('--image on each provider', () => {
  it('OpenAI Chat Completions gets an image_url data URL after the text', async () => {
    const png = await writePng(join(home.workspace, 'shot.png'), 64, 48);
    const server = keep(await startChatServer([{ text: 'A gradient.' }]));
    const ran = await home.run(['--no-session', '--image', 'shot.png', 'what is in it?'], { OPENAI_API_KEY: 'k', OPENAI_BASE_URL: server.url, VIBE_MODEL: 'gpt-4o' });
    expect(ran.stderr).toContain('[image: shot.png 64×48]');
    expect(ran.code).toBe(0);
    expect(server.violations).toEqual([]);
    const user = server.requests[0]!.messages.find((m) => m.role === 'user')!;
    expect(user.content).toEqual([{ type: 'text', text: 'what is in it?' }, { type: 'image_url', image_url: { url: `data:image/png;base64,${png.toString('base64')}` } }]);
  }, CLI_SESSION_TIMEOUT_MS);

  it('Anthropic gets an image block with a base64 source', async () => {
    const png = await writePng(join(home.workspace, 'a.png'), 20, 10);
    const server = keep(await startAnthropicServer([{ text: 'ok' }]));
    const ran = await home.run(['--no-session', '--provider', 'anthropic', '--image', 'a.png', 'look'], { ANTHROPIC_API_KEY: 'k', ANTHROPIC_BASE_URL: server.url });
    expect(ran.code).toBe(0);
    expect(server.violations).toEqual([]);
    // The newest message's last block carries the rolling cache breakpoint: an image block may.
    expect(server.requests[0]!.messages[0]!.content).toEqual([
      { type: 'text', text: 'look' },
      { type: 'image', source: { type: 'base64', media_type: 'image/png', data: png.toString('base64') }, cache_control: { type: 'ephemeral' } },
    ]);
  }, CLI_SESSION_TIMEOUT_MS);

  it('Gemini gets an inlineData part; the media type comes from the bytes, not the name', async () => {
    const png = await writePng(join(home.workspace, 'named-wrong.jpg'), 16, 16);
    const server = keep(await startGeminiServer([{ text: 'ok' }]));
    const ran = await home.run(['--no-session', '--provider', 'google', '--image', 'named-wrong.jpg', 'look'], { GEMINI_API_KEY: 'k', GOOGLE_GEMINI_BASE_URL: server.url });
    expect(ran.code).toBe(0);
    expect(server.violations).toEqual([]);
    const contents = server.requests[0]!.body.contents as Array<{ parts: Parts }>;
    expect(contents[0]!.parts).toEqual([{ text: 'look' }, { inlineData: { mimeType: 'image/png', data: png.toString('base64') } }]);
  }, CLI_SESSION_TIMEOUT_MS);
});

describe('images in the prompt and over the limits', () => {
  it('an @shot.png mention attaches the file from the workspace; @notes.ts stays text', async () => {
    await writePng(join(home.workspace, 'mention.png'), 10, 10);
    const server = keep(await startChatServer([{ text: 'ok' }]));
    const ran = await home.run(['--no-session', 'compare @mention.png with @notes.ts'], { OPENAI_API_KEY: 'k', OPENAI_BASE_URL: server.url, VIBE_MODEL: 'gpt-4o' });
    expect(ran.code).toBe(0);
    const parts = server.requests[0]!.messages.find((m) => m.role === 'user')!.content as Parts;
    expect(parts.map((p) => p.type)).toEqual(['text', 'image_url']);
    expect(parts[0]!.text).toBe('compare @mention.png with @notes.ts');
  }, CLI_SESSION_TIMEOUT_MS);

  it('a 20 MB image is scaled under Anthropic\'s 5 MB limit and still sent', async () => {
    const big = await writeNoisePng(join(home.workspace, 'noise.png'), 20 * 1024 * 1024);
    expect(big.length).toBeGreaterThan(20 * 1024 * 1024);
    const server = keep(await startAnthropicServer([{ text: 'noise' }]));
    const ran = await home.run(['--no-session', '--provider', 'anthropic', '--image', 'noise.png', 'what?'], { ANTHROPIC_API_KEY: 'k', ANTHROPIC_BASE_URL: server.url });
    expect(ran.stderr).toMatch(/noise\.png was \d+×\d+ \(\d+(\.\d)? MB\), over Anthropic's limits; sent as \d+×\d+/);
    expect(ran.code).toBe(0);
    expect(server.violations).toEqual([]);
    const block = (server.requests[0]!.messages[0]!.content as Parts)[1] as { source: { data: string } };
    expect(block.source.data.length).toBeLessThanOrEqual(5 * 1024 * 1024);
  }, 240_000);

  it('a corrupt file is refused with its name and nothing is sent', async () => {
    const png = await writePng(join(home.workspace, 'whole.png'), 30, 30);
    writeFileSync(join(home.workspace, 'broken.png'), png.subarray(0, png.length / 2));
    const server = keep(await startChatServer([{ text: 'never' }]));
    const ran = await home.run(['--no-session', '--image', 'broken.png', 'look'], { OPENAI_API_KEY: 'k', OPENAI_BASE_URL: server.url, VIBE_MODEL: 'gpt-4o' });
    expect(ran.code).toBe(2);
    expect(ran.stderr).toContain('broken.png is a truncated or damaged PNG');
    expect(server.requests).toHaveLength(0);
  }, CLI_SESSION_TIMEOUT_MS);

  it('a text-only preset is refused before any request', async () => {
    await writePng(join(home.workspace, 'b.png'), 8, 8);
    const server = keep(await startChatServer([{ text: 'never' }]));
    const ran = await home.run(['--no-session', '--provider', 'deepseek', '--base-url', server.url, '--image', 'b.png', 'look'], { DEEPSEEK_API_KEY: 'k' });
    expect(ran.code).toBe(2);
    expect(ran.stderr).toContain('the deepseek endpoint does not accept images');
    expect(server.requests).toHaveLength(0);
  }, CLI_SESSION_TIMEOUT_MS);
});

describe('sessions keep each image once, beside the session file', () => {
  it('stores the image by hash (0600), not inline; --continue sends it again; a missing file is a warning', async () => {
    const png = await writePng(join(home.workspace, 'kept.png'), 40, 20);
    const server = keep(await startChatServer([{ text: 'first' }, { text: 'second' }, { text: 'third' }]));
    const env = { OPENAI_API_KEY: 'k', OPENAI_BASE_URL: server.url, VIBE_MODEL: 'gpt-4o' };
    for (const name of home.sessionFiles()) rmSync(home.sessionPath(name));
    expect((await home.run(['--image', 'kept.png', 'remember this'], env)).code).toBe(0);
    const [file] = home.sessionFiles();
    const text = readFileSync(home.sessionPath(file!), 'utf8');
    expect(text).not.toContain(png.toString('base64').slice(0, 200));
    const dir = imagesDirFor(home.sessionPath(file!));
    const stored = readdirSync(dir);
    expect(stored).toHaveLength(1);
    expect(stored[0]).toMatch(/^[0-9a-f]{64}\.png$/);
    expect(statSync(join(dir, stored[0]!)).mode & 0o777).toBe(0o600);
    expect(readFileSync(join(dir, stored[0]!)).equals(png)).toBe(true);

    expect((await home.run(['--continue', 'and now?'], env)).code).toBe(0);
    const resent = server.requests[1]!.messages.find((m) => m.role === 'user')!.content as Parts;
    expect(resent[1]).toEqual({ type: 'image_url', image_url: { url: `data:image/png;base64,${png.toString('base64')}` } });
    expect(readdirSync(dir)).toHaveLength(1);

    rmSync(join(dir, stored[0]!));
    const third = await home.run(['--continue', 'still there?'], env);
    expect(third.code).toBe(0);
    expect(third.stderr).toContain('is missing from the session\'s image folder; resuming without it');
    expect(server.violations).toEqual([]);
  }, 120_000);
});

describe('read_file on an image', () => {
  it('with Anthropic, the tool_result holds an image block', async () => {
    const png = await writePng(join(home.workspace, 'diagram.png'), 12, 12);
    const server = keep(await startAnthropicServer([{ toolCalls: [{ name: 'read_file', arguments: { path: 'diagram.png' } }] }, { text: 'seen' }]));
    const ran = await home.run(['--no-session', '--provider', 'anthropic', '--tools', 'read_file', 'open diagram.png'], { ANTHROPIC_API_KEY: 'k', ANTHROPIC_BASE_URL: server.url });
    expect(ran.code).toBe(0);
    expect(server.violations).toEqual([]);
    const results = (server.requests[1]!.messages[2]!.content as Parts).filter((b) => b.type === 'tool_result');
    expect(results[0]!.content).toEqual([
      { type: 'text', text: expect.stringContaining('diagram.png: PNG image, 12×12') },
      { type: 'image', source: { type: 'base64', media_type: 'image/png', data: png.toString('base64') } },
    ]);
  }, CLI_SESSION_TIMEOUT_MS);

  it('with OpenAI, the image follows the tool results in a user message', async () => {
    await writePng(join(home.workspace, 'diagram2.png'), 12, 12);
    const server = keep(await startChatServer([{ toolCalls: [{ name: 'read_file', arguments: { path: 'diagram2.png' } }] }, { text: 'seen' }]));
    const ran = await home.run(['--no-session', '--tools', 'read_file', 'open diagram2.png'], { OPENAI_API_KEY: 'k', OPENAI_BASE_URL: server.url, VIBE_MODEL: 'gpt-4o' });
    expect(ran.code).toBe(0);
    expect(server.violations).toEqual([]);
    const roles = server.requests[1]!.messages.map((m) => m.role);
    expect(roles.slice(-3)).toEqual(['assistant', 'tool', 'user']);
    expect((server.requests[1]!.messages.at(-1)!.content as Parts).map((p) => p.type)).toEqual(['text', 'image_url']);
  }, CLI_SESSION_TIMEOUT_MS);
});
