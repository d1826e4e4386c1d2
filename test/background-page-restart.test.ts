import { existsSync } from 'node:fs';
import { chromium, type Page } from 'playwright-core';
import { afterEach, describe, expect, it } from 'vitest';
import { agents, alive, backgroundHome, killServer, repository, serverOf, startBackground } from './support/background-cli.js';
import { startChatServer } from './support/chat-server.js';
import { waitFor, waitForAsync } from './support/cli-process.js';

const CHROMIUM = '/usr/bin/chromium';
const ANSWER = 'The restart story is told.';

const cleanups: Array<() => unknown> = [];
const errors: string[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

type BrowserGlobals = { document: { querySelector(selector: string): { textContent: string | null } | null } };

/** Resolves once the element's text matches (polled by the browser); on a timeout says what the page held. */
async function textOf(page: Page, selector: string, pattern: RegExp): Promise<string> {
  try {
    await page.waitForFunction(([sel, source]) => new RegExp(source).test((globalThis as unknown as BrowserGlobals).document.querySelector(sel)?.textContent ?? ''), [selector, pattern.source] as const, { timeout: 60_000 });
  } catch (error) {
    const body = await page.locator('body').innerText({ timeout: 1000 }).catch(() => '');
    throw new Error(`${selector} never matched ${pattern}\npage errors: ${errors.join('\n')}\nthe page: ${body.slice(0, 2000)}`, { cause: error });
  }
  return (await page.locator(selector).first().textContent()) ?? '';
}

describe('the live page after the server stopped and started again', () => {
  it('lists a finished background session the new server has not opened, in the state agents --json gives, and shows its events', { timeout: 300_000 }, async () => {
    if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: install Debian's chromium (apt-get install chromium) to run the page's browser test.`);
    const model = await startChatServer([{ text: ANSWER }]);
    const home = backgroundHome(model.url);
    cleanups.push(() => model.close(), () => home.cleanup());
    repository(home);

    const { row, server: first } = await startBackground(home, ['-w', 'finisher', 'tell the restart story'], 'stop', cleanups);
    await waitForAsync(async () => (await agents(home)).find((one) => one.id === row.id)?.state === 'done', 'the session to be done');

    // The server stops (as its idle exit does: SIGTERM closes it the same way) and nothing restarts it yet.
    process.kill(first.pid, 'SIGTERM');
    await waitFor(() => !alive(first.pid), 'the first server to exit', 60_000);

    // The page starts a new server on the same data folder; it holds no session until one is asked for.
    const opened = await home.run(['agents', '--page', '--no-open']);
    expect(opened.code, opened.stderr).toBe(0);
    cleanups.push(() => killServer(home));
    const server = serverOf(home);
    expect(server.pid).not.toBe(first.pid);
    const bearer = { authorization: `Bearer ${server.token}` };
    const open = (await (await fetch(`${server.url}/v1/sessions`, { headers: bearer })).json()) as { sessions: unknown[] };
    expect(open.sessions).toEqual([]);

    // GET /v1/agents keeps the token and origin rules of every route.
    expect((await fetch(`${server.url}/v1/agents`)).status).toBe(401);
    expect((await fetch(`${server.url}/v1/agents/${row.id}`)).status).toBe(401);
    expect((await fetch(`${server.url}/v1/agents`, { headers: { ...bearer, origin: 'http://attacker.example' } })).status).toBe(403);
    expect((await fetch(`${server.url}/v1/agents/${row.id}`, { headers: { ...bearer, origin: 'http://attacker.example' } })).status).toBe(403);
    expect((await fetch(`${server.url}/v1/agents/nope`, { headers: bearer })).status).toBe(404);

    const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'] });
    cleanups.push(() => browser.close());
    const tab = await browser.newPage();
    errors.length = 0;
    tab.on('console', (message) => {
      if (message.type() === 'error') errors.push(`console: ${message.text()}`);
    });
    tab.on('pageerror', (error) => errors.push(`page: ${error.message}`));
    await tab.goto(opened.stdout.match(/^(http:\S+)$/m)![1]!);

    const rowOf = `tr.agent[data-id="${row.id}"]`;
    await textOf(tab, `${rowOf} .name`, /^finisher$/);
    const shown = await textOf(tab, `${rowOf} .state`, /\S/);
    const [listed] = await agents(home);
    expect(listed!.id).toBe(row.id);
    expect(shown).toBe(listed!.state);
    expect(shown).toBe('done');
    await textOf(tab, '#agents-count', /^1 session$/);

    // Its events, from its file: the prompt and the model's answer.
    await tab.locator(`${rowOf} button`).click();
    await textOf(tab, '#turns', /tell the restart story/);
    await textOf(tab, '#turns', new RegExp(ANSWER.replace('.', '\\.')));
    await textOf(tab, '#session-state', /^done$/);
    expect(errors).toEqual([]);
    expect(model.violations).toEqual([]);
  });
});
