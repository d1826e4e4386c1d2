import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { DoctorReport, ProbeResult } from '../src/doctor/types.js';
import { startAnthropicServer } from './support/anthropic-server.js';
import { startChatServer, type ChatServer } from './support/chat-server.js';
import { CLI_SESSION_TIMEOUT_MS, homeEnv, spawnCli } from './support/cli-process.js';
import { doctorScript, type DoctorQuirk } from './support/doctor-model.js';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

async function doctorAgainst(quirk: DoctorQuirk): Promise<{ report: DoctorReport; server: ChatServer; code: number | null }> {
  const server = await startChatServer(doctorScript(quirk), { checkEcho: false });
  const home = mkdtempSync(join(tmpdir(), 'vibe-doctor-'));
  cleanups.push(() => server.close(), () => rmSync(home, { recursive: true, force: true }));
  const ran = await spawnCli(['doctor', '--base-url', server.url, '--model', 'test-model', '--json'], { cwd: home, env: homeEnv(home) });
  expect(ran.stderr).toBe('');
  return { report: JSON.parse(ran.stdout) as DoctorReport, server, code: ran.code };
}

const probe = (report: DoctorReport, id: string): ProbeResult => {
  const found = report.probes.find((one) => one.id === id);
  if (!found) throw new Error(`no probe ${id} in ${report.probes.map((one) => one.id).join(', ')}`);
  return found;
};

// Each test spawns the CLI, which sends a dozen requests: load, not logic, decides how long that takes.
describe('vibe-agent doctor against a local OpenAI-compatible server', { timeout: CLI_SESSION_TIMEOUT_MS }, () => {
  it('passes every probe on a clean server and recommends native tool calls', async () => {
    const { report, server, code } = await doctorAgainst('none');
    expect(report.probes.filter((one) => one.status !== 'pass')).toEqual([]);
    expect(report.probes.map((one) => one.id)).toEqual(['reach', 'tools', 'arguments', 'leaked', 'parallel', 'reasoning', 'parameters', 'context', 'latency', 'adapter']);
    expect(probe(report, 'arguments').detail).toContain('fragmented');
    expect(report.recommendation).toMatchObject({ protocol: 'native', preset: 'openai', notes: [] });
    expect(report.local.find((one) => one.id === 'config')).toMatchObject({ status: 'pass' });
    expect(server.violations).toEqual([]);
    expect(code).toBe(0);
  });

  it('diagnoses streamed arguments without an index', async () => {
    const { report } = await doctorAgainst('no-index');
    expect(probe(report, 'arguments')).toMatchObject({ status: 'warn', data: { withoutIndex: true } });
    expect(probe(report, 'tools').status).toBe('pass');
    expect(probe(report, 'adapter').status).toBe('pass');
  });

  it('diagnoses tool calls leaked into the text, and names the markup', async () => {
    const { report } = await doctorAgainst('leaked');
    expect(probe(report, 'leaked')).toMatchObject({ status: 'warn', data: { markup: ['<tool_call>'] } });
    expect(probe(report, 'tools').status).toBe('warn');
    expect(probe(report, 'adapter').detail).toContain('recovered from text');
    expect(report.recommendation.protocol).toBe('native');
  });

  it('diagnoses a parameter the server rejects with a 400', async () => {
    const { report } = await doctorAgainst('rejects-parallel');
    expect(probe(report, 'parameters')).toMatchObject({ status: 'warn', data: { rejected: ['parallel_tool_calls'] } });
    expect(report.recommendation.notes.join(' ')).toContain('parallel_tool_calls');
  });

  it('diagnoses a server that demands its reasoning back with tool results, and recommends a preset that replays it', async () => {
    const { report } = await doctorAgainst('demands-reasoning');
    expect(probe(report, 'reasoning')).toMatchObject({ status: 'warn', data: { field: 'reasoning_content', demandsBack: true } });
    expect(probe(report, 'reasoning').detail).toContain('Missing `reasoning_content`');
    expect(report.recommendation).toMatchObject({ protocol: 'native', preset: 'deepseek', config: { provider: 'deepseek', model: 'test-model', baseUrl: expect.stringContaining('127.0.0.1') } });
    expect(report.recommendation.notes.join(' ')).toContain('demands its reasoning back');
  });

  it('finds a context silently truncated to 4,096 tokens by bisection and recommends the window it measured', async () => {
    const { report, server } = await doctorAgainst('truncates');
    // The ladder keeps 3,000 and loses 7,000; four bisection requests narrow it to 4,000 kept, 4,250 lost.
    expect(probe(report, 'context')).toMatchObject({ status: 'warn', data: { keptTokens: 4000, lostTokens: 4250 } });
    expect(report.recommendation.contextWindow).toBe(4000);
    expect(report.recommendation.config).toMatchObject({ contextWindow: 4000, baseUrl: expect.stringContaining('127.0.0.1') });
    expect(report.recommendation.notes.join(' ')).toContain('keeps ≈4000 tokens');
    const needles = server.requests.filter((body) => String(body.messages[0]?.content ?? '').startsWith('The passphrase is'));
    expect(needles).toHaveLength(3 + 4);
  });

  it('finds a window truncated at 6,000 tokens to within 250 tokens below it', async () => {
    const { report } = await doctorAgainst('truncates-6000');
    expect(probe(report, 'context')).toMatchObject({ status: 'warn', data: { keptTokens: 5750, lostTokens: 6000 } });
    expect(report.recommendation.contextWindow).toBe(5750);
    expect(report.recommendation.config).toMatchObject({ contextWindow: 5750 });
  });

  it('prints a table and a recommendation without --json', async () => {
    const server = await startChatServer(doctorScript('none'), { checkEcho: false });
    const home = mkdtempSync(join(tmpdir(), 'vibe-doctor-'));
    cleanups.push(() => server.close(), () => rmSync(home, { recursive: true, force: true }));
    const ran = await spawnCli(['doctor', '--base-url', server.url, '--model', 'test-model'], { cwd: home, env: homeEnv(home) });
    expect(ran.stdout).toMatch(/ok\s+native tool calls\s+get_weather/);
    expect(ran.stdout).toContain('Recommendation');
    expect(ran.stdout).toContain('"model": "test-model"');
  });

  it('refuses a paid endpoint without a terminal unless --yes, after showing the estimate', async () => {
    const home = mkdtempSync(join(tmpdir(), 'vibe-doctor-'));
    cleanups.push(() => rmSync(home, { recursive: true, force: true }));
    const ran = await spawnCli(['doctor', '--model', 'gpt-4.1-mini'], { cwd: home, env: { ...homeEnv(home), OPENAI_API_KEY: 'sk-test' } });
    expect(ran.code).toBe(2);
    expect(ran.stderr).toMatch(/input tokens .* \$0\.\d+ at list price/);
    expect(ran.stderr).toContain('pass --yes');
    expect(ran.stdout).toBe('');
  });

  it('with no endpoint configured still shows this machine\'s checks, then what to set (exit 2)', async () => {
    const home = mkdtempSync(join(tmpdir(), 'vibe-doctor-'));
    cleanups.push(() => rmSync(home, { recursive: true, force: true }));
    const ran = await spawnCli(['doctor'], { cwd: home, env: homeEnv(home) });
    expect(ran.code).toBe(2);
    expect(ran.stdout).toContain('This machine');
    expect(ran.stdout).toMatch(/Node\.js/i);
    expect(ran.stdout).toContain('Missing: OPENAI_API_KEY');
    const json = await spawnCli(['doctor', '--json'], { cwd: home, env: homeEnv(home) });
    const parsed = JSON.parse(json.stdout) as { endpoint: null; local: ProbeResult[]; error: string };
    expect(json.code).toBe(2);
    expect(parsed.endpoint).toBeNull();
    expect(parsed.local.some((row) => row.label.startsWith('shell sandbox'))).toBe(true);
    expect(parsed.error).toContain('OPENAI_API_KEY');
  });

  it('reports a broken config file as a finding and still probes the endpoint', async () => {
    const server = await startChatServer(doctorScript('none'), { checkEcho: false });
    const home = mkdtempSync(join(tmpdir(), 'vibe-doctor-'));
    cleanups.push(() => server.close(), () => rmSync(home, { recursive: true, force: true }));
    const { mkdirSync, writeFileSync } = await import('node:fs');
    mkdirSync(join(home, '.vibe-agent'));
    writeFileSync(join(home, '.vibe-agent', 'config.json'), '{"maxTurns": "many"}');
    const ran = await spawnCli(['doctor', '--base-url', server.url, '--model', 'test-model', '--json'], { cwd: home, env: homeEnv(home) });
    const report = JSON.parse(ran.stdout) as DoctorReport;
    expect(report.local.find((one) => one.id === 'config')).toMatchObject({ status: 'fail', detail: expect.stringContaining('maxTurns') });
    expect(probe(report, 'reach').status).toBe('pass');
    expect(ran.code).toBe(1);
  });

  it('checks an Anthropic endpoint through its adapter (the wire probes speak Chat Completions)', async () => {
    const server = await startAnthropicServer([{ text: 'tool_search and get_weather' }, { toolCalls: [{ name: 'get_weather', arguments: { city: 'Paris' } }] }]);
    const home = mkdtempSync(join(tmpdir(), 'vibe-doctor-'));
    cleanups.push(() => server.close(), () => rmSync(home, { recursive: true, force: true }));
    const ran = await spawnCli(['doctor', '--provider', 'anthropic', '--json'], { cwd: home, env: { ...homeEnv(home), ANTHROPIC_API_KEY: 'sk-ant-test', ANTHROPIC_BASE_URL: server.url } });
    const report = JSON.parse(ran.stdout) as DoctorReport;
    expect(report.probes.map((one) => [one.id, one.status])).toEqual([
      ['wire', 'skip'],
      ['tool-search', 'pass'],
      ['adapter', 'pass'],
    ]);
    expect(probe(report, 'adapter').detail).toContain('get_weather({"city":"Paris"})');
    // The probe sent the weather tool deferred and the search's result as a tool_reference block.
    const sent = server.requests[0]!;
    expect(sent.tools).toEqual([expect.objectContaining({ name: 'tool_search' }), expect.objectContaining({ name: 'get_weather', defer_loading: true })]);
    expect(JSON.stringify(sent.messages.at(-1))).toContain('{"type":"tool_reference","tool_name":"get_weather"}');
    expect(server.violations).toEqual([]);
    expect(ran.code).toBe(0);
  });

  it('finds an Anthropic proxy that refuses deferred tools, and says tool search uses its bridge there', async () => {
    const server = await startAnthropicServer([{ toolCalls: [{ name: 'get_weather', arguments: { city: 'Paris' } }] }], { refuseToolSearch: true });
    const home = mkdtempSync(join(tmpdir(), 'vibe-doctor-'));
    cleanups.push(() => server.close(), () => rmSync(home, { recursive: true, force: true }));
    const ran = await spawnCli(['doctor', '--provider', 'anthropic', '--json'], { cwd: home, env: { ...homeEnv(home), ANTHROPIC_API_KEY: 'sk-ant-test', ANTHROPIC_BASE_URL: server.url } });
    const report = JSON.parse(ran.stdout) as DoctorReport;
    expect(probe(report, 'tool-search')).toMatchObject({ status: 'warn', data: { native: false } });
    expect(probe(report, 'tool-search').detail).toContain('defer_loading: Extra inputs are not permitted');
    expect(report.recommendation.notes.join('\n')).toContain('MCP tool search uses its bridge');
  });
});
