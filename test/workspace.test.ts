import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { resolveInWorkspace } from '../src/workspace/resolve-path.js';
import { isSecretPath } from '../src/workspace/secret-files.js';

let base: string;
let ws: string;
let evil: string;
let outside: string;

beforeEach(async () => {
  base = await realpath(await mkdtemp(join(tmpdir(), 'vibe-ws-')));
  ws = join(base, 'ws');
  evil = join(base, 'ws-evil');
  outside = join(base, 'outside');
  for (const dir of [ws, evil, outside, join(ws, 'src', 'deep')]) await mkdir(dir, { recursive: true });
  await writeFile(join(ws, 'inside.txt'), 'ok');
  await writeFile(join(ws, 'src', 'deep', 'nested.ts'), 'ok');
  await writeFile(join(evil, 'x'), 'evil');
  await writeFile(join(outside, 'secret.txt'), 'outside');
});

afterEach(async () => {
  await rm(base, { recursive: true, force: true });
});

function expectRefused(result: Awaited<ReturnType<typeof resolveInWorkspace>>): string {
  expect(result.ok).toBe(false);
  return result.ok ? '' : result.reason;
}

describe('resolveInWorkspace refuses escapes', () => {
  it('refuses ../x and names the workspace and --add-dir', async () => {
    const reason = expectRefused(await resolveInWorkspace('../outside/secret.txt', { workspace: ws }));
    expect(reason).toContain(ws);
    expect(reason).toContain('--add-dir');
  });

  it('refuses a/../../x', async () => {
    expectRefused(await resolveInWorkspace('src/../../outside/secret.txt', { workspace: ws }));
  });

  it('refuses /etc/passwd', async () => {
    expect(expectRefused(await resolveInWorkspace('/etc/passwd', { workspace: ws }))).toContain('outside the workspace');
  });

  it('refuses a sibling directory sharing the workspace prefix', async () => {
    expectRefused(await resolveInWorkspace(join(evil, 'x'), { workspace: ws }));
    expectRefused(await resolveInWorkspace(join(evil, 'new.txt'), { workspace: ws, forWrite: true }));
  });

  it('refuses a symlinked file pointing outside', async () => {
    await symlink(join(outside, 'secret.txt'), join(ws, 'link.txt'));
    expect(expectRefused(await resolveInWorkspace('link.txt', { workspace: ws }))).toContain('resolves to');
  });

  it('refuses a path through a symlinked directory pointing outside', async () => {
    await symlink(outside, join(ws, 'out'));
    expectRefused(await resolveInWorkspace('out/secret.txt', { workspace: ws }));
  });

  it('refuses a symlink chain that ends outside', async () => {
    await symlink(join(outside, 'secret.txt'), join(ws, 'hop2'));
    await symlink(join(ws, 'hop2'), join(ws, 'hop1'));
    expectRefused(await resolveInWorkspace('hop1', { workspace: ws }));
  });

  it('refuses a symlink to /', async () => {
    await symlink('/', join(ws, 'root'));
    expectRefused(await resolveInWorkspace('root/etc/passwd', { workspace: ws }));
    expectRefused(await resolveInWorkspace('root', { workspace: ws }));
  });

  it('refuses forWrite into a symlinked directory pointing outside', async () => {
    await symlink(outside, join(ws, 'out'));
    expectRefused(await resolveInWorkspace('out/new/deeper.txt', { workspace: ws, forWrite: true }));
  });

  it('refuses /dev/null and /dev/zero, even when /dev is an extra root', async () => {
    expectRefused(await resolveInWorkspace('/dev/null', { workspace: ws }));
    const reason = expectRefused(await resolveInWorkspace('/dev/zero', { workspace: ws, extraRoots: ['/dev'] }));
    expect(reason).toContain('not a regular file');
    expectRefused(await resolveInWorkspace('/dev/null', { workspace: ws, extraRoots: ['/dev'] }));
  });

  it('refuses a FIFO or socket inside the workspace', async () => {
    const special = join(ws, 'special');
    let server: Server | undefined;
    try {
      execFileSync('mkfifo', [special]);
    } catch {
      server = createServer();
      await new Promise<void>((done) => server!.listen(special, done));
    }
    try {
      expect(expectRefused(await resolveInWorkspace('special', { workspace: ws }))).toContain('not a regular file');
    } finally {
      if (server) await new Promise<void>((done) => server!.close(() => done()));
    }
  });

  it('refuses a NUL byte', async () => {
    expect(expectRefused(await resolveInWorkspace('inside.txt\0.png', { workspace: ws }))).toContain('NUL');
  });

  it('does not expand ~ and says so', async () => {
    expect(expectRefused(await resolveInWorkspace('~/.ssh/id_rsa', { workspace: ws }))).toContain('not performed');
  });

  it('keeps %2e%2e/ literal so it cannot escape', async () => {
    const result = await resolveInWorkspace('%2e%2e/outside/secret.txt', { workspace: ws, forWrite: true });
    expect(result.ok).toBe(true);
    if (result.ok) expect(relative(ws, result.absolute).startsWith('..')).toBe(false);
  });

  it('treats Windows-style ..\\..\\x as a literal name inside the workspace', async () => {
    const result = await resolveInWorkspace('..\\..\\x', { workspace: ws, forWrite: true });
    expect(result.ok).toBe(true);
    if (result.ok) expect(result.absolute).toBe(join(ws, '..\\..\\x'));
  });

  it('refuses an absolute path to a missing file outside', async () => {
    expectRefused(await resolveInWorkspace(join(outside, 'nope.txt'), { workspace: ws }));
  });
});

describe('resolveInWorkspace allows paths inside', () => {
  it('resolves a file inside, relative and absolute', async () => {
    expect(await resolveInWorkspace('inside.txt', { workspace: ws })).toEqual({
      ok: true,
      absolute: join(ws, 'inside.txt'),
      relative: 'inside.txt',
    });
    const abs = await resolveInWorkspace(join(ws, 'inside.txt'), { workspace: ws });
    expect(abs.ok && abs.relative).toBe('inside.txt');
  });

  it('resolves nested paths and the workspace itself', async () => {
    const nested = await resolveInWorkspace('src/deep/../deep/nested.ts', { workspace: ws });
    expect(nested.ok && nested.relative).toBe(join('src', 'deep', 'nested.ts'));
    const self = await resolveInWorkspace('.', { workspace: ws });
    expect(self.ok && self.relative).toBe('.');
  });

  it('allows a new file for write but not a missing file for read', async () => {
    const write = await resolveInWorkspace('src/new/file.ts', { workspace: ws, forWrite: true });
    expect(write.ok && write.absolute).toBe(join(ws, 'src', 'new', 'file.ts'));
    expect(expectRefused(await resolveInWorkspace('missing.ts', { workspace: ws }))).toContain('does not exist');
  });

  it('allows a symlink inside pointing inside', async () => {
    await symlink(join(ws, 'src'), join(ws, 'alias'));
    const result = await resolveInWorkspace('alias/deep/nested.ts', { workspace: ws });
    expect(result.ok && result.absolute).toBe(join(ws, 'src', 'deep', 'nested.ts'));
  });

  it('widens access with extraRoots', async () => {
    const result = await resolveInWorkspace(join(outside, 'secret.txt'), { workspace: ws, extraRoots: [outside] });
    expect(result.ok && result.absolute).toBe(join(outside, 'secret.txt'));
  });

  it('realpaths a workspace given through a symlink', async () => {
    await symlink(ws, join(base, 'ws-link'));
    const result = await resolveInWorkspace('inside.txt', { workspace: join(base, 'ws-link') });
    expect(result.ok && result.absolute).toBe(join(ws, 'inside.txt'));
  });
});

describe('secret files', () => {
  it('recognises secret names', () => {
    const secrets = ['.env', '.env.local', 'a/server.pem', 'tls.key', '.ssh/id_rsa', 'id_rsa.pub', 'id_ed25519',
      'id_ecdsa', '.npmrc', '/home/u/.netrc', '.pgpass', 'cert.p12', 'cert.pfx', 'credentials.json',
      '.aws/credentials', '/home/u/.ssh/config', 'C:\\Users\\u\\.ssh\\known_hosts'];
    for (const path of secrets) expect(isSecretPath(path), path).toBe(true);
  });

  it('does not flag templates or ordinary files', () => {
    for (const path of ['.env.example', '.env.sample', '.env.template', 'src/index.ts', 'credentials.md', 'keys.ts', 'aws/credentials']) {
      expect(isSecretPath(path), path).toBe(false);
    }
  });

  it('refuses secrets by default, allows them with allowSecrets, and allows .env.example', async () => {
    await writeFile(join(ws, '.env'), 'TOKEN=1');
    await writeFile(join(ws, '.env.example'), 'TOKEN=');
    expect(expectRefused(await resolveInWorkspace('.env', { workspace: ws }))).toContain('allowSecrets');
    expect((await resolveInWorkspace('.env', { workspace: ws, allowSecrets: true })).ok).toBe(true);
    expect((await resolveInWorkspace('.env.example', { workspace: ws })).ok).toBe(true);
  });

  it('refuses a harmless-looking symlink to a secret file', async () => {
    await writeFile(join(ws, 'deploy.pem'), 'key');
    await symlink(join(ws, 'deploy.pem'), join(ws, 'notes.txt'));
    expectRefused(await resolveInWorkspace('notes.txt', { workspace: ws }));
  });
});
