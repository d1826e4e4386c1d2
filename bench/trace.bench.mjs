// What the trace page costs on a large session: 1,000 turns / ~50 MB of session file. The CLI's
// `trace --html` (read, rebuild every request, count tokens, write the page), then the page in
// Chromium: time to the first rows and the chart, the longest frame while scrolling the whole
// timeline, and opening the last turn. A 10-turn session is measured the same way, for the ratio.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const CLI = fileURLToPath(new URL('../dist/cli/main.js', import.meta.url));
const CHROMIUM = '/usr/bin/chromium';

/**
 * With `requestLog` (a RequestLog from the built library), each turn's request is recorded too (a
 * format-2 file), its older tool results capped to 2,000 characters as a small window's policy would.
 */
export function sessionText(turns, outputBytes, requestLog) {
  const system = { role: 'system', content: 'You are a coding agent.' };
  const sent = [system, { role: 'user', content: 'read every file' }];
  const tools = [{ name: 'read_file', description: 'Reads a file.', parameters: { type: 'object', properties: { path: { type: 'string' } } } }];
  const lines = [
    { type: 'session', version: requestLog ? 2 : 1, id: `bench-${turns}`, workspace: '/bench', createdAt: '2026-12-03T00:00:00Z' },
    { type: 'system_prompt', content: system.content },
    { type: 'run_start', provider: 'openai', model: 'gpt-4o', tools: ['read_file'], input: 'read every file' },
  ];
  for (let turn = 1; turn <= turns; turn++) {
    const call = { id: `call_${turn}`, name: 'read_file', arguments: JSON.stringify({ path: `src/file-${turn}.ts` }) };
    const output = `export const value${turn} = ${turn}; // a line of source\n`.repeat(Math.ceil(outputBytes / 44)).slice(0, outputBytes);
    const input = 1_000 + turn * 40;
    const usage = { inputTokens: input, outputTokens: 30, cachedInputTokens: Math.floor(input * 0.8), reasoningTokens: 0 };
    const reply = { role: 'assistant', content: `Reading file ${turn}.`, toolCalls: [call] };
    lines.push({ type: 'turn_start', turn });
    if (requestLog) lines.push(requestLog.record({ model: 'gpt-4o', temperature: 0, messages: [...sent], tools }));
    lines.push(
      { type: 'usage', turn, usage, total: usage },
      { type: 'assistant_message', turn, message: reply, finishReason: 'tool_calls' },
      { type: 'tool_call_start', turn, call },
      { type: 'tool_call_end', turn, id: call.id, name: call.name, status: turn % 50 === 0 ? 'error' : 'ok', isError: turn % 50 === 0, output, durationMs: 2 },
      { type: 'turn_end', turn, fromEvents: 2, messages: [] },
    );
    sent.push(reply, { role: 'tool', toolCallId: call.id, name: call.name, content: `${output.slice(0, 2_000)}\n[… ${outputBytes - 2_000} chars omitted]`, isError: turn % 50 === 0 });
  }
  lines.push({ type: 'stop', reason: 'turn_limit', answer: null, turns, usage: { inputTokens: 0, outputTokens: 0, cachedInputTokens: 0, reasoningTokens: 0 } });
  return `${lines.map((line) => JSON.stringify(line)).join('\n')}\n`;
}

function run(args) {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, [CLI, ...args], { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('close', (code) => (code === 0 ? resolve(performance.now() - started) : reject(new Error(`trace exited ${code}: ${stderr}`))));
  });
}

async function openInBrowser(browser, file) {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  const errors = [];
  page.on('pageerror', (error) => errors.push(error.message));
  const started = performance.now();
  await page.goto(`file://${file}`, { waitUntil: 'commit' });
  await page.waitForSelector('details.turn');
  await page.waitForSelector('#chart canvas');
  // The first paint with the timeline and chart in it: the page's texts may still be loading.
  const openMs = await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => resolve(performance.now()))));
  await page.waitForLoadState('load');
  const loadedMs = performance.now() - started;
  // Scroll the timeline top to bottom in 40 steps, one per frame; the longest frame is the jank.
  const longestFrameMs = await page.evaluate(async () => {
    const frames = [];
    const end = document.documentElement.scrollHeight;
    let last = performance.now();
    for (let step = 1; step <= 40; step++) {
      window.scrollTo(0, (end * step) / 40);
      await new Promise((resolve) => requestAnimationFrame(() => resolve(undefined)));
      const now = performance.now();
      frames.push(now - last);
      last = now;
    }
    return Math.max(...frames);
  });
  const expandStarted = performance.now();
  await page.locator('details.turn').last().locator('summary').click();
  await page.locator('details.turn').last().locator('.request').waitFor();
  const expandMs = performance.now() - expandStarted;
  await page.close();
  if (errors.length) throw new Error(`page errors: ${errors.join('; ')}`);
  return { openMs, loadedMs, longestFrameMs, expandMs };
}

export default async function traceBench() {
  const dir = mkdtempSync(join(tmpdir(), 'vibe-trace-bench-'));
  try {
    const cases = [
      { name: '10 turns', turns: 10, outputBytes: 50_000 },
      { name: '1,000 turns', turns: 1_000, outputBytes: 50_000 },
      { name: '1,000 turns, request records', turns: 1_000, outputBytes: 50_000, recorded: true },
    ];
    const { RequestLog } = await import('../dist/session/request-record.js');
    const rows = [];
    let browser;
    if (existsSync(CHROMIUM)) {
      const { chromium } = await import('playwright-core');
      browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'] });
    }
    for (const c of cases) {
      const session = join(dir, `${c.turns}${c.recorded ? '-recorded' : ''}.jsonl`);
      writeFileSync(session, sessionText(c.turns, c.outputBytes, c.recorded ? new RequestLog() : undefined));
      const page = join(dir, `${c.turns}${c.recorded ? '-recorded' : ''}.html`);
      const cliMs = await run(['trace', session, '--html', page]);
      const browserFigures = browser ? await openInBrowser(browser, page) : undefined;
      rows.push({ ...c, sessionMb: statSync(session).size / 1e6, pageMb: statSync(page).size / 1e6, cliMs, ...browserFigures });
    }
    await browser?.close();
    console.log('\n## trace page (bench/trace.bench.mjs)\n');
    console.log('| session | file MB | page MB | trace --html ms | timeline and chart shown ms | page fully loaded ms | longest scroll frame ms | open last turn ms |');
    console.log('|---|---|---|---|---|---|---|---|');
    for (const row of rows) {
      const ms = (value) => (value === undefined ? 'no chromium' : Math.round(value).toLocaleString('en-US'));
      console.log(`| ${row.name} | ${row.sessionMb.toFixed(1)} | ${row.pageMb.toFixed(1)} | ${ms(row.cliMs)} | ${ms(row.openMs)} | ${ms(row.loadedMs)} | ${ms(row.longestFrameMs)} | ${ms(row.expandMs)} |`);
    }
    const [small, large, recorded] = rows;
    if (small.openMs !== undefined) console.log(`\nopen time ratio 1,000 / 10 turns: ${(large.openMs / small.openMs).toFixed(1)}×; trace --html ratio: ${(large.cliMs / small.cliMs).toFixed(1)}×`);
    if (recorded.openMs !== undefined) console.log(`with request records / without, 1,000 turns: open ${(recorded.openMs / large.openMs).toFixed(2)}×, fully loaded ${(recorded.loadedMs / large.loadedMs).toFixed(2)}×, trace --html ${(recorded.cliMs / large.cliMs).toFixed(2)}×`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
