import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FINAL_ANSWER, recordTraceSession, TRACE_SECRET, type RecordedSession } from './support/trace-recording.js';

const CHROMIUM = '/usr/bin/chromium';
const TIMEOUT_MS = 120_000;

let recorded: RecordedSession;
let browser: Browser;
let page: Page;

/** The recorded session exported by the built CLI (`trace FILE --html OUT`), opened in Chromium. */
beforeAll(async () => {
  if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: install Debian's chromium (apt-get install chromium; .ci/run does) to run the trace page's browser tests.`);
  recorded = await recordTraceSession();
  expect(recorded.ran.code, recorded.ran.stderr).toBe(0);
  const file = join(recorded.home.root, 'header.html');
  const exported = await recorded.home.run(['trace', recorded.path, '--html', file]);
  expect(exported.code, exported.stderr).toBe(0);
  expect(readFileSync(file, 'utf8').includes(TRACE_SECRET)).toBe(false);
  browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'] });
  page = await (await browser.newContext({ offline: true })).newPage();
  await page.goto(`file://${file}`);
  await page.waitForSelector('details.turn');
}, TIMEOUT_MS);

afterAll(async () => {
  await browser?.close();
  await recorded?.cleanup();
});

describe("the trace page's header", () => {
  it('shows the task (the first prompt) and the final answer above the totals', async () => {
    const rows = await page.locator('#outcome tr').allTextContents();
    expect(rows[0]).toBe('taskRead the notes and tell me about them');
    expect(rows[1]).toContain('answer');
    expect(rows[1]).toContain(FINAL_ANSWER);
    expect(rows[1]).not.toContain(TRACE_SECRET);
    // The answer's hostile markup is text, not a script that ran.
    expect(await page.evaluate(() => (globalThis as { hostile?: number }).hostile)).toBeUndefined();
    const order = await page.locator('#app > table').evaluateAll((tables) => tables.map((table) => table.id));
    expect(order).toEqual(['outcome', 'totals']);
  });

  it('counts in words that agree with the number: "1 tool error", never "1 errors" or "(1 turns)"', async () => {
    const text = await page.locator('#app').innerText();
    expect(text).toContain('1 tool error');
    expect(text).not.toMatch(/\b1 (errors|turns|retries|messages)\b/);
    expect(text).toMatch(/tool calls\s+\d+ \(1 failed or denied\)/);
  });

  it('"permission allowed" on a failed call is not in error red; the failure itself is', async () => {
    await page.locator('details.turn').first().locator('summary').click();
    await page.waitForSelector('.tool-head .permission');
    const heads = await page.locator('.tool-head').evaluateAll((nodes) =>
      nodes.map((node) => {
        const colour = (element: unknown) => (globalThis as unknown as { getComputedStyle(element: unknown): { color: string } }).getComputedStyle(element).color;
        return { text: node.textContent, permission: colour(node.querySelector('.permission')), status: colour(node.querySelector('span:not(.permission)')), head: colour(node) };
      }),
    );
    const red = 'rgb(179, 38, 30)';
    const failed = heads.find((head) => head.text!.includes('error') && head.text!.includes('permission allowed'));
    expect(failed, JSON.stringify(heads)).toBeDefined();
    expect(failed!.status).toBe(red);
    expect(failed!.permission).not.toBe(red);
    expect(failed!.head).not.toBe(red);
    const fine = heads.find((head) => head.text!.includes(' ok ') || head.text!.includes('· ok ·'));
    expect(fine?.permission).toBe(failed!.permission);
  });

  it('"permission denied" is red: the same session with the failed call recorded as denied', async () => {
    const lines = readFileSync(recorded.path, 'utf8').split('\n');
    const denied = lines.map((line) => {
      if (!line.includes('"tool_call_end"') || !line.includes('"call_missing"')) return line;
      const record = JSON.parse(line) as Record<string, unknown>;
      return JSON.stringify({ ...record, status: 'denied', output: 'Denied: the user said no.' });
    });
    expect(denied).not.toEqual(lines);
    const session = join(recorded.home.root, 'denied.jsonl');
    writeFileSync(session, denied.join('\n'));
    const file = join(recorded.home.root, 'denied.html');
    const exported = await recorded.home.run(['trace', session, '--html', file]);
    expect(exported.code, exported.stderr).toBe(0);
    const other = await browser.newPage();
    await other.goto(`file://${file}`);
    await other.locator('details.turn').first().locator('summary').click();
    await other.waitForSelector('.tool-head .permission');
    const permissions = await other.locator('.tool-head .permission').evaluateAll((nodes) =>
      nodes.map((node) => ({ text: node.textContent, colour: (globalThis as unknown as { getComputedStyle(element: unknown): { color: string } }).getComputedStyle(node).color })),
    );
    expect(permissions).toContainEqual({ text: 'permission denied', colour: 'rgb(179, 38, 30)' });
    expect(permissions.find((p) => p.text === 'permission allowed')?.colour).not.toBe('rgb(179, 38, 30)');
    await other.close();
  });
});
