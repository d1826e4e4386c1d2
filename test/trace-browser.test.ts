import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { networkInterfaces } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI, waitFor } from './support/cli-process.js';
import { recordTraceSession, TRACE_SECRET, type RecordedSession } from './support/trace-recording.js';

const CHROMIUM = '/usr/bin/chromium';
const ARTIFACTS = join(import.meta.dirname, '..', 'test-artifacts');
const TIMEOUT_MS = 120_000;

let recorded: RecordedSession;
let browser: Browser;
let server: ChildProcess | undefined;
let serverOut = '';

beforeAll(async () => {
  if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: install Debian's chromium (apt-get install chromium; .ci/run does) to run the trace page's browser test.`);
  mkdirSync(ARTIFACTS, { recursive: true });
  recorded = await recordTraceSession();
  expect(recorded.ran.code, recorded.ran.stderr).toBe(0);
  // launch() gives the browser a fresh, temporary user data dir of its own.
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
}, TIMEOUT_MS);

afterAll(async () => {
  if (server && server.exitCode === null) server.kill('SIGKILL');
  await browser?.close();
  await recorded?.cleanup();
});

/** The page with every console error and page error collected. */
async function openPage(url: string): Promise<{ page: Page; errors: string[] }> {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(`console: ${message.text()}`);
  });
  page.on('pageerror', (error) => errors.push(`page: ${error.message}`));
  await page.goto(url);
  await page.waitForSelector('details.turn');
  return { page, errors };
}

/** What both the served page and the export must show for the recorded session. */
async function checkPage(page: Page, errors: string[], name: string): Promise<void> {
  const summaries = await page.locator('details.turn > summary').allTextContents();
  expect(summaries).toHaveLength(4);
  expect(summaries[0]).toContain('#1');
  expect(summaries[0]).toContain('1 tool error');
  expect(summaries[1]).toContain('1 retry');
  expect(summaries[2]).toContain('compacted');
  const session = readFileSync(recorded.path, 'utf8').trim().split('\n').map((line) => JSON.parse(line));
  const firstUsage = session.find((record) => record.type === 'usage').usage;
  expect(summaries[0]).toContain(`${firstUsage.inputTokens.toLocaleString('en-US')} prompt tokens`);
  expect(summaries[0]).toContain(`(${firstUsage.cachedInputTokens.toLocaleString('en-US')} cached)`);
  const stop = session.find((record) => record.type === 'stop');
  await expect(page.locator('#totals').textContent()).resolves.toContain(stop.usage.inputTokens.toLocaleString('en-US'));

  // The chart: uPlot drew on a canvas, with the context window among its series.
  expect(await page.locator('#chart canvas').count()).toBeGreaterThan(0);
  expect(await page.locator('#chart').textContent()).toContain('context window');

  // A turn's body is rendered when it is opened: the compaction with its token figures, the request.
  await page.locator('details.turn').nth(2).locator('summary').click();
  const third = page.locator('details.turn').nth(2);
  const compaction = session.find((record) => record.type === 'compaction');
  await expect(third.locator('.compaction h4').first().textContent()).resolves.toContain(`${compaction.tokensBefore.toLocaleString('en-US')} → ${compaction.tokensAfter.toLocaleString('en-US')} tokens`);
  expect(await third.locator('.request h4').textContent()).toMatch(/Request \(as sent\): \d+ new of \d+ messages/);
  expect(await page.locator('#totals').textContent()).toContain('as sent (from the request records)');
  // Turn 2's request holds notes.txt's result as the model got it: capped by the 4,096-token window.
  await page.locator('details.turn').nth(1).locator('summary').click();
  await page.locator('details.turn').nth(1).locator('.request .msg').first().waitFor();
  const sentResults = await page.locator('details.turn').nth(1).locator('.request .msg').allTextContents();
  expect(sentResults.some((text) => /notes line 0:/.test(text) && /omitted of [\d,]+; full output saved as output id/.test(text))).toBe(true);
  expect(await page.locator('details.turn').nth(1).locator('.usage').textContent()).toMatch(/request as sent: 5 messages, \d+ tool schemas/);
  await page.locator('details.turn').nth(0).locator('summary').click();
  expect(await page.locator('details.turn').nth(0).locator('.tool-head:has(> .bad)').textContent()).toContain('error');
  await page.screenshot({ path: join(ARTIFACTS, `trace-${name}.png`), fullPage: true });

  // Filters: tool errors only, one turn, search.
  await page.locator('#filter-errors').check();
  expect(await page.locator('details.turn:visible').count()).toBe(1);
  expect(await page.locator('#shown-count').textContent()).toBe('1 of 4 turns shown');
  await page.locator('#filter-errors').uncheck();
  await page.locator('#filter-turn').fill('3');
  expect(await page.locator('details.turn:visible > summary').allTextContents()).toEqual([expect.stringContaining('#3')]);
  await page.locator('#filter-turn').fill('');
  await page.locator('#search').fill('three planets');
  expect(await page.locator('details.turn:visible > summary').allTextContents()).toEqual([expect.stringContaining('#4')]);
  await page.locator('#search').fill('');
  await page.screenshot({ path: join(ARTIFACTS, `trace-${name}-filtered.png`) });

  // The hostile text is shown as text, never run; the secret is nowhere.
  expect(await page.evaluate(() => (globalThis as unknown as { hostile?: number }).hostile)).toBeUndefined();
  expect((await page.content()).includes(TRACE_SECRET)).toBe(false);
  expect(errors).toEqual([]);
  await page.close();
}

function get(url: string, host?: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(url, { headers: host ? { host } : {} }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('error', reject);
    req.end();
  });
}

describe('the trace page in Chromium', { timeout: TIMEOUT_MS }, () => {
  it('is served on 127.0.0.1 under a token, and shows the turns, token figures, chart and filters', async () => {
    server = spawn(process.execPath, [CLI, 'trace', '--no-open'], { cwd: recorded.home.workspace, env: recorded.home.env, stdio: ['ignore', 'pipe', 'pipe'] });
    server.stdout!.on('data', (chunk) => (serverOut += chunk));
    server.stderr!.on('data', (chunk) => (serverOut += chunk));
    await waitFor(() => /http:\/\/\S+\/\n/.test(serverOut), 'the trace URL', 60_000);
    const url = serverOut.match(/(http:\/\/\S+\/)\n/)![1]!;
    const parsed = new URL(url);
    expect(parsed.hostname).toBe('127.0.0.1');
    expect(parsed.pathname).toMatch(/^\/[\w-]{32,}\/$/);

    // Only the token's path, only for this server's own Host names.
    expect(await get(url)).toBe(200);
    expect(await get(`${parsed.origin}/wrong-token/`)).toBe(404);
    expect(await get(`${parsed.origin}/`)).toBe(404);
    expect(await get(`${parsed.origin}${parsed.pathname.slice(0, -2)}/`)).toBe(404);
    expect(await get(url, `attacker.example:${parsed.port}`)).toBe(404);
    expect(await get(url, `localhost:${parsed.port}`)).toBe(200);
    // Bound to loopback: another address of this machine refuses the connection.
    const external = Object.values(networkInterfaces()).flat().find((address) => address && address.family === 'IPv4' && !address.internal);
    if (external) await expect(get(`http://${external.address}:${parsed.port}${parsed.pathname}`)).rejects.toThrow(/ECONNREFUSED/);

    const { page, errors } = await openPage(url);
    await checkPage(page, errors, 'served');

    const exited = new Promise<number | null>((resolve) => server!.once('exit', (code) => resolve(code)));
    server.kill('SIGINT');
    expect(await exited).toBe(0);
  });

  it('--html writes one self-contained file that shows the same page with no network', async () => {
    const file = join(recorded.home.root, 'trace.html');
    const ran = await recorded.home.run(['trace', recorded.path, '--html', file]);
    expect(ran.code, ran.stderr).toBe(0);
    expect(ran.stdout).toContain(file);
    const html = readFileSync(file, 'utf8');
    // Nothing to fetch: no script or stylesheet by address (uPlot names the SVG namespace, which is no request).
    expect(html.match(/<script[^>]+src=|<link[^>]+href=/g)).toBeNull();
    expect(html.includes(TRACE_SECRET)).toBe(false);

    const context = await browser.newContext({ offline: true });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(`console: ${message.text()}`);
    });
    page.on('pageerror', (error) => errors.push(`page: ${error.message}`));
    const requests: string[] = [];
    page.on('request', (req) => requests.push(req.url()));
    await page.goto(`file://${file}`);
    await page.waitForSelector('details.turn');
    await checkPage(page, errors, 'export');
    expect(requests.filter((address) => !address.startsWith('file:'))).toEqual([]);
    await context.close();
  });

  it('a torn session file shows what could be read and says what was skipped', async () => {
    const torn = join(recorded.home.root, 'torn.jsonl');
    const lines = readFileSync(recorded.path, 'utf8').split('\n');
    lines.splice(6, 0, '{"type":"tool_call_end","id":');
    writeFileSync(torn, `${lines.join('\n')}{"type":"turn_start"`);
    const file = join(recorded.home.root, 'torn.html');
    const ran = await recorded.home.run(['trace', torn, '--html', file]);
    expect(ran.code, ran.stderr).toBe(0);
    expect(ran.stderr).toContain('2 unreadable lines or records');
    const { page, errors } = await openPage(`file://${file}`);
    const skipped = await page.locator('#skipped').textContent();
    expect(skipped).toContain('2 unreadable lines or records were skipped');
    expect(skipped).toContain('line 7 is not a valid record');
    expect(skipped).toContain('unfinished last line');
    expect(await page.locator('details.turn').count()).toBe(4);
    await page.screenshot({ path: join(ARTIFACTS, 'trace-torn.png') });
    expect(errors).toEqual([]);
    await page.close();
  });
});
