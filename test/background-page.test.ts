import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterEach, describe, expect, it } from 'vitest';
import { agents, backgroundHome, killServer, repository, serverOf } from './support/background-cli.js';
import { startChatServer, type ChatRequestBody, type ServerStep } from './support/chat-server.js';

const CHROMIUM = '/usr/bin/chromium';
const ARTIFACTS = join(import.meta.dirname, '..', 'test-artifacts');
const STORY = 'Once upon a time there was a page. The end.';

const cleanups: Array<() => unknown> = [];
/** The live page's console and page errors. */
const errors: string[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function released(): { promise: Promise<void>; release(): void } {
  let release!: () => void;
  const promise = new Promise<void>((resolve) => (release = resolve));
  return { promise, release };
}

const taskOf = (body: ChatRequestBody) => JSON.stringify(body.messages.find((message) => message.role === 'user')?.content ?? '');

/** Two conversations on one model server: the story streams through two gates; the writer asks twice. */
function script(followed: Promise<void>, finish: Promise<void>): ServerStep[] {
  const reply = (body: ChatRequestBody) => {
    if (taskOf(body).includes('story')) return { kind: 'gated' as const, reply: { text: STORY }, gates: [{ after: 1, release: followed }, { after: 4, release: finish }] };
    const results = body.messages.filter((message) => message.role === 'tool').length;
    if (results === 0) return { toolCalls: [{ id: 'w1', name: 'write_file', arguments: { path: 'first.txt', content: 'allowed from the page\n' } }] };
    if (results === 1) return { toolCalls: [{ id: 'w2', name: 'write_file', arguments: { path: 'second.txt', content: 'allowed elsewhere\n' } }] };
    return { text: 'wrote both files.' };
  };
  return [reply, reply, reply, reply];
}

type BrowserGlobals = { document: { querySelector(selector: string): { textContent: string | null } | null } };

/** Resolves once the element's text matches (polled by the browser); on a timeout says what it held. */
async function textOf(page: Page, selector: string, pattern: RegExp): Promise<string> {
  try {
    // A function, not a string: the page's Content-Security-Policy forbids eval.
    await page.waitForFunction(([sel, source]) => new RegExp(source).test((globalThis as unknown as BrowserGlobals).document.querySelector(sel)?.textContent ?? ''), [selector, pattern.source] as const, { timeout: 60_000 });
  } catch (error) {
    const held = await page.locator(selector).first().textContent({ timeout: 1000 }).catch(() => '(no such element)');
    const body = await page.locator('body').innerText({ timeout: 1000 }).catch(() => '');
    throw new Error(`${selector} never matched ${pattern}; it holds: ${held}\npage errors: ${errors.join('\n')}\nthe page: ${body.slice(0, 2000)}`, { cause: error });
  }
  return (await page.locator(selector).first().textContent()) ?? '';
}

async function status(url: string, init: RequestInit = {}): Promise<number> {
  return (await fetch(url, init)).status;
}

describe('the live page of the session server in Chromium', () => {
  it('lists two background sessions, streams one\'s turn, and answers the other\'s approval from the browser', { timeout: 300_000 }, async () => {
    if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: install Debian's chromium (apt-get install chromium) to run the page's browser test.`);
    mkdirSync(ARTIFACTS, { recursive: true });
    const followed = released();
    const finish = released();
    const model = await startChatServer(script(followed.promise, finish.promise), { conversationOf: taskOf });
    const home = backgroundHome(model.url);
    cleanups.push(() => model.close(), () => home.cleanup());
    const repo = repository(home);
    cleanups.push(() => {
      followed.release();
      finish.release();
    });

    const talker = await home.run(['--bg', '-w', 'talker', 'tell a story']);
    expect(talker.code, talker.stderr).toBe(0);
    cleanups.push(() => killServer(home));
    const writer = await home.run(['--bg', '-w', 'writer', '--permission-mode', 'ask', 'write the two files']);
    expect(writer.code, writer.stderr).toBe(0);
    const rows = await agents(home);
    const storyId = rows.find((row) => row.name === 'talker')!.id;
    const writerRow = rows.find((row) => row.name === 'writer')!;

    // The address: the server's root, the token after # (never sent, never logged).
    const opened = await home.run(['agents', '--page', '--no-open']);
    expect(opened.code, opened.stderr).toBe(0);
    const server = serverOf(home);
    const address = opened.stdout.match(/^(http:\S+)$/m)![1]!;
    expect(address).toBe(`${server.url}/#token=${encodeURIComponent(server.token)}`);
    expect(readFileSync(join(home.env.XDG_DATA_HOME, 'vibe-agent', 'serve', 'serve.log'), 'utf8')).not.toContain(server.token);

    // Another origin is refused, token or not; the page's own origin still needs the token.
    const bearer = { authorization: `Bearer ${server.token}` };
    const foreign = { origin: 'http://attacker.example' };
    expect(await status(`${server.url}/v1/sessions`, { headers: { ...bearer, ...foreign } })).toBe(403);
    expect(await status(`${server.url}/v1/sessions/${writerRow.id}/approvals/x`, { method: 'POST', headers: { ...bearer, ...foreign, 'content-type': 'application/json' }, body: '{"decision":"allow"}' })).toBe(403);
    expect(await status(`${server.url}/`, { headers: foreign })).toBe(403);
    expect(await status(`${server.url}/v1/sessions`, { headers: { origin: server.url } })).toBe(401);
    expect(await status(`${server.url}/v1/sessions`, { headers: { ...bearer, origin: server.url } })).toBe(200);
    const page = await fetch(`${server.url}/`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect(await page.text()).not.toContain(server.token);

    const browser: Browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'] });
    cleanups.push(() => browser.close());
    const tab = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    errors.length = 0;
    tab.on('console', (message) => {
      if (message.type() === 'error') errors.push(`console: ${message.text()}`);
    });
    tab.on('pageerror', (error) => errors.push(`page: ${error.message}`));
    await tab.goto(address);
    const rowOf = (id: string) => `tr.agent[data-id="${id}"]`;

    // Both sessions, live: the story mid-request, the writer waiting for its approval.
    await textOf(tab, `${rowOf(storyId)} .state`, /^working$/);
    await textOf(tab, `${rowOf(writerRow.id)} .state`, /^needs you$/);
    await textOf(tab, `${rowOf(storyId)} .name`, /^talker$/);
    expect(tab.url()).not.toContain('token');

    // The story's turn as it streams: shown once the page follows it, then text as it arrives, then whole.
    await tab.locator(`${rowOf(storyId)} button`).click();
    await textOf(tab, '#turns details.turn > summary', /in progress/);
    followed.release();
    const partial = await textOf(tab, '#turns', /Once upon a tim/);
    expect(partial).not.toContain('The end.');
    finish.release();
    await textOf(tab, '#turns', /The end\./);
    await textOf(tab, `${rowOf(storyId)} .state`, /^done$/);
    await tab.screenshot({ path: join(ARTIFACTS, 'live-page-story.png'), fullPage: true });

    // The writer's approval, whole: tool, summary, arguments; Allow from the page.
    await tab.locator(`${rowOf(writerRow.id)} button`).click();
    const card = await textOf(tab, '#approvals .approval', /write_file/);
    expect(card).toContain('first.txt');
    expect(card).toContain('allowed from the page');
    await tab.screenshot({ path: join(ARTIFACTS, 'live-page-approval.png'), fullPage: true });
    const firstRequest = await tab.locator('#approvals .approval').first().getAttribute('data-request');
    await tab.locator(`#approvals .approval[data-request="${firstRequest}"] button[data-decision="allow"]`).click();
    await textOf(tab, `#approvals .approval[data-request="${firstRequest}"] .approval-status`, /^answered here: allowed$/);

    // The session goes on and asks again; another client answers first, and the page says so.
    await textOf(tab, '#approvals', /second\.txt/);
    const secondRequest = await tab.locator('#approvals .approval').nth(1).getAttribute('data-request');
    const elsewhere = await fetch(`${server.url}/v1/sessions/${writerRow.id}/approvals/${secondRequest}`, { method: 'POST', headers: { ...bearer, 'content-type': 'application/json' }, body: '{"decision":"allow"}' });
    expect(elsewhere.status).toBe(200);
    await textOf(tab, `#approvals .approval[data-request="${secondRequest}"] .approval-status`, /^answered elsewhere: allowed$/);
    expect(await tab.locator(`#approvals .approval[data-request="${secondRequest}"] button[data-decision="allow"]`).isDisabled()).toBe(true);
    await textOf(tab, '#turns', /wrote both files\./);
    await textOf(tab, `${rowOf(writerRow.id)} .state`, /^done$/);
    expect(readFileSync(join(writerRow.worktree!, 'first.txt'), 'utf8')).toBe('allowed from the page\n');
    expect(readFileSync(join(writerRow.worktree!, 'second.txt'), 'utf8')).toBe('allowed elsewhere\n');
    await tab.screenshot({ path: join(ARTIFACTS, 'live-page-done.png'), fullPage: true });

    // Done in its worktree: Land brings both files into the checkout (POST …/land) and says so.
    await textOf(tab, '#land-note', /^vibe\/writer$/);
    await tab.locator('#land').click();
    await textOf(tab, '#land-result', /Landed writer into/);
    expect(await tab.locator('#land-result').textContent()).toContain('wrote first.txt, wrote second.txt.');
    expect(readFileSync(join(repo, 'first.txt'), 'utf8')).toBe('allowed from the page\n');
    expect(readFileSync(join(repo, 'second.txt'), 'utf8')).toBe('allowed elsewhere\n');
    await textOf(tab, '#land-note', /^vibe\/writer · landed [0-9a-f]{12}$/);
    await tab.screenshot({ path: join(ARTIFACTS, 'live-page-landed.png'), fullPage: true });

    // A page of another origin holding the token still cannot call the server (no CORS for it).
    const other = await browser.newPage();
    await other.goto(model.url.replace(/\/v1$/, '/'));
    const fromOther = await other.evaluate(
      ([url, token]) => fetch(`${url}/v1/sessions`, { headers: { authorization: `Bearer ${token}` } }).then((reply) => `status ${reply.status}`, () => 'refused'),
      [server.url, server.token] as const,
    );
    expect(fromOther).toBe('refused');
    expect(errors).toEqual([]);
    expect(model.violations).toEqual([]);
  });
});
