import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ChildProcess } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import type { DoctorReport } from '../src/doctor/types.js';
import { startAnthropicServer } from './support/anthropic-server.js';
import { startChatServer } from './support/chat-server.js';
import { CLI_SESSION_TIMEOUT_MS, homeEnv, spawnCli } from './support/cli-process.js';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

async function silentServer() {
  const server = await startChatServer(Array.from({ length: 20 }, () => ({ kind: 'silent' as const })), { checkEcho: false });
  const home = mkdtempSync(join(tmpdir(), 'vibe-doctor-limits-'));
  cleanups.push(() => server.close(), () => rmSync(home, { recursive: true, force: true }));
  return { server, home };
}

describe('doctor against a server that accepts and never answers', { timeout: CLI_SESSION_TIMEOUT_MS }, () => {
  it('ends within its time limit with a clear "no answer" line, having hung up on the request', async () => {
    const { server, home } = await silentServer();
    const ran = await spawnCli(['doctor', '--base-url', server.url, '--model', 'm', '--json'], { cwd: home, env: { ...homeEnv(home), VIBE_DOCTOR_TIMEOUT: '0.5' } });
    const report = JSON.parse(ran.stdout) as DoctorReport;
    expect(report.probes).toEqual([{ id: 'reach', label: 'reachable and authenticated', status: 'fail', detail: 'connected, but no answer in 0.5 s', data: { status: 0 } }]);
    expect(ran.code).toBe(1);
    expect(server.requests).toHaveLength(1);
    expect(await server.waitForHangUp()).toBe(1);
  });

  it('prints the line in the table too', async () => {
    const { server, home } = await silentServer();
    const ran = await spawnCli(['doctor', '--base-url', server.url, '--model', 'm'], { cwd: home, env: { ...homeEnv(home), VIBE_DOCTOR_TIMEOUT: '0.5' } });
    expect(ran.stdout).toContain('connected, but no answer in 0.5 s');
  });

  it('stops at Ctrl-C, long before the limit, with the probes that finished', async () => {
    const { server, home } = await silentServer();
    let child: ChildProcess | undefined;
    const running = spawnCli(['doctor', '--base-url', server.url, '--model', 'm', '--json'], { cwd: home, env: { ...homeEnv(home), VIBE_DOCTOR_TIMEOUT: '3600' }, onSpawn: (spawned) => (child = spawned) });
    await server.waitForRequest(1);
    child!.kill('SIGINT');
    const ran = await running;
    const report = JSON.parse(ran.stdout) as DoctorReport;
    expect(report.probes.map((probe) => probe.id)).toEqual(['reach', 'cancelled']);
    expect(ran.code).toBe(130);
  });

  it('bounds the adapter and deferred-tools probes too (an Anthropic endpoint is checked through its adapter only)', async () => {
    const server = await startAnthropicServer([{ kind: 'silent' }, { kind: 'silent' }]);
    const home = mkdtempSync(join(tmpdir(), 'vibe-doctor-limits-'));
    cleanups.push(() => server.close(), () => rmSync(home, { recursive: true, force: true }));
    const env = { ...homeEnv(home), ANTHROPIC_API_KEY: 'sk-ant-test', ANTHROPIC_BASE_URL: server.url, VIBE_DOCTOR_TIMEOUT: '0.5' };
    const ran = await spawnCli(['doctor', '--provider', 'anthropic', '--json'], { cwd: home, env });
    const report = JSON.parse(ran.stdout) as DoctorReport;
    expect(report.probes.map((probe) => [probe.id, probe.status, probe.detail])).toEqual([
      ['wire', 'skip', expect.any(String)],
      ['tool-search', 'fail', 'no answer in 0.5 s'],
      ['adapter', 'fail', 'no answer in 0.5 s'],
    ]);
    expect(ran.code).toBe(1);
  });

  it('refuses a VIBE_DOCTOR_TIMEOUT that is not a number of seconds', async () => {
    const { server, home } = await silentServer();
    const ran = await spawnCli(['doctor', '--base-url', server.url, '--model', 'm'], { cwd: home, env: { ...homeEnv(home), VIBE_DOCTOR_TIMEOUT: 'soon' } });
    expect(ran.stderr).toContain('VIBE_DOCTOR_TIMEOUT must be a number of seconds above 0, got "soon".');
    expect(ran.code).toBe(2);
    expect(server.requests).toHaveLength(0);
  });
});
