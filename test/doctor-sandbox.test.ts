import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { localChecks, type LocalFacts } from '../src/doctor/local-checks.js';
import type { DoctorReport } from '../src/doctor/types.js';
import { userNamespaceHint } from '../src/sandbox/detect-bubblewrap.js';
import { startChatServer } from './support/chat-server.js';
import { CLI_SESSION_TIMEOUT_MS, homeEnv, spawnCli } from './support/cli-process.js';
import { doctorScript } from './support/doctor-model.js';

const facts = (extra: Partial<LocalFacts>): LocalFacts => ({ nodeVersion: 'v20.0.0', platform: 'linux', stdoutIsTTY: false, env: {}, configFiles: [], ...extra });
const sandboxOf = (results: ReturnType<typeof localChecks>) => results.find((one) => one.id === 'sandbox');

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

describe('doctor: the shell sandbox', () => {
  it('says usable, unavailable with the reason, or not used on this platform', () => {
    expect(sandboxOf(localChecks(facts({ sandbox: () => ({ ok: true, path: 'bwrap' }) })))).toMatchObject({ status: 'pass', detail: expect.stringContaining('user namespaces allowed') });
    const refused = sandboxOf(localChecks(facts({ sandbox: () => ({ ok: false, reason: 'bwrap is installed but refused to start (setting up uid map: Permission denied); user namespaces are disabled' }) })));
    expect(refused).toMatchObject({ status: 'warn', detail: expect.stringMatching(/^unavailable: bwrap is installed but refused.*Permission denied.*Shell commands run unsandboxed$/) });
    expect(sandboxOf(localChecks(facts({ platform: 'darwin', sandbox: () => ({ ok: true, path: 'bwrap' }) })))).toMatchObject({ status: 'skip', detail: expect.stringContaining('darwin') });
  });

  it('names the kernel setting that forbids user namespaces, and the fix', () => {
    const only = (settings: Record<string, string>) => (path: string) => settings[path];
    expect(userNamespaceHint(only({ '/proc/sys/kernel/unprivileged_userns_clone': '0' }))).toContain('sysctl -w kernel.unprivileged_userns_clone=1');
    expect(userNamespaceHint(only({ '/proc/sys/user/max_user_namespaces': '0' }))).toContain('user.max_user_namespaces = 0');
    expect(userNamespaceHint(only({ '/proc/sys/kernel/apparmor_restrict_unprivileged_userns': '1', '/proc/sys/user/max_user_namespaces': '1000' }))).toContain('AppArmor');
    expect(userNamespaceHint(only({ '/proc/sys/kernel/unprivileged_userns_clone': '1', '/proc/sys/user/max_user_namespaces': '1000' }))).toContain('container');
  });

  it('vibe-agent doctor --json reports it from a real probe: bwrap missing from PATH, and as this machine has it', { timeout: CLI_SESSION_TIMEOUT_MS }, async () => {
    const server = await startChatServer([...doctorScript('none'), ...doctorScript('none')], { checkEcho: false });
    const home = mkdtempSync(join(tmpdir(), 'vibe-doctor-sandbox-'));
    cleanups.push(() => server.close(), () => rmSync(home, { recursive: true, force: true }));
    const doctor = async (env: Record<string, string>) => {
      const ran = await spawnCli(['doctor', '--base-url', server.url, '--model', 'test-model', '--json'], { cwd: home, env: { ...homeEnv(home), ...env } });
      return (JSON.parse(ran.stdout) as DoctorReport).local.find((one) => one.id === 'sandbox');
    };
    // A PATH holding only git (what doctor may need beside bwrap): no bwrap to find.
    const bin = join(home, 'bin');
    mkdirSync(bin);
    symlinkSync(spawnSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).stdout.trim() || '/usr/bin/git', join(bin, 'git'));
    expect(await doctor({ PATH: bin })).toMatchObject({ status: 'warn', detail: expect.stringContaining('bubblewrap (bwrap) is not installed') });

    const probe = spawnSync('bwrap', ['--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc', '--unshare-net', 'true']);
    const here = await doctor({});
    if (probe.status === 0) expect(here).toMatchObject({ status: 'pass', detail: expect.stringContaining('usable') });
    else expect(here).toMatchObject({ status: 'warn', detail: expect.stringContaining('unavailable') });
  });
});
