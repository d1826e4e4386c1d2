import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';

// `npm test` and .ci/run start with scripts/system-tools.sh. Here it runs with a PATH that holds none of
// the tools (only bash and what the script itself calls), as on a fresh machine.
const script = join(process.cwd(), 'scripts/system-tools.sh');
const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function freshMachine(extra: Record<string, string> = {}): string {
  const bin = mkdtempSync(join(tmpdir(), 'vibe-fresh-'));
  dirs.push(bin);
  // A stand-in is its own file, never written through a link: as root, writing through the `id` link
  // replaced the machine's /usr/bin/id.
  for (const tool of ['bash', 'id'].filter((name) => !(name in extra))) {
    symlinkSync(execFileSync('bash', ['-c', `command -v ${tool}`], { encoding: 'utf8' }).trim(), join(bin, tool));
  }
  for (const [name, body] of Object.entries(extra)) {
    writeFileSync(join(bin, name), `#!${join(bin, 'bash')}\n${body}\n`);
    chmodSync(join(bin, name), 0o755);
  }
  return bin;
}

function run(bin: string) {
  return spawnSync(join(bin, 'bash'), [script], { env: { PATH: bin }, encoding: 'utf8' });
}

describe('the system tools npm test needs', () => {
  it('stops at once with one line naming the packages and the install command when it cannot install them', () => {
    const bin = freshMachine({ id: 'echo 1000', 'apt-get': 'echo "apt-get must not run" >&2; exit 99' });
    const result = run(bin);
    expect(result.status).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe(
      'npm test: missing system tools the tests drive: ripgrep tmux bubblewrap chromium. Install them first with: sudo apt-get install -y ripgrep tmux bubblewrap chromium\n',
    );
  });

  it('names the packages without apt too', () => {
    const bin = freshMachine({ id: 'echo 0' });
    const result = run(bin);
    expect(result.status).toBe(1);
    expect(result.stderr.trim().split('\n')).toEqual([
      'npm test: missing system tools the tests drive: ripgrep tmux bubblewrap chromium. Install them first with: your package manager (on Debian or Ubuntu: apt-get install -y ripgrep tmux bubblewrap chromium)',
    ]);
  });

  it('as root with apt-get installs exactly the missing ones, as .ci/run does', () => {
    const log = join(mkdtempSync(join(tmpdir(), 'vibe-apt-')), 'apt.log');
    dirs.push(join(log, '..'));
    const bin = freshMachine({ id: 'echo 0', 'apt-get': `echo "$*" >> ${log}`, tmux: 'exit 0' });
    const result = run(bin);
    expect(result.status).toBe(0);
    expect(result.stdout).toBe('installing the system tools the tests drive: ripgrep bubblewrap chromium\n');
    expect(readFileSync(log, 'utf8').split('\n')).toEqual(['update -qq', 'install -y -qq ripgrep bubblewrap chromium', '']);
  });

  it('is what npm test and CI run first', () => {
    const pkg = JSON.parse(readFileSync('package.json', 'utf8')) as { scripts: Record<string, string> };
    expect(pkg.scripts.test!.startsWith('bash scripts/system-tools.sh && ')).toBe(true);
    expect(readFileSync('.ci/run', 'utf8')).toContain('\nbash scripts/system-tools.sh\n');
  });

  it('leaves the tools it stands in for untouched', () => {
    const real = execFileSync('bash', ['-c', 'command -v id'], { encoding: 'utf8' }).trim();
    const before = readFileSync(real);
    run(freshMachine({ id: 'echo 0' }));
    expect(readFileSync(real).equals(before)).toBe(true);
  });

  it('passes silently on this machine, where the tools are installed', () => {
    const result = spawnSync('bash', [script], { encoding: 'utf8' });
    expect({ status: result.status, out: result.stdout, err: result.stderr }).toEqual({ status: 0, out: '', err: '' });
  });
});
