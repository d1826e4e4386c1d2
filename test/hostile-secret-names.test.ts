/** Issue 19, class 12: secret files by name, refused alike by read_file, grep (both engines) and list_files. */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createFileTools } from '../src/tools/coding/file-tools.js';
import { createSearchTools } from '../src/tools/coding/search-tools.js';
import { ToolRegistry } from '../src/tools/registry.js';
import { isSecretPath } from '../src/workspace/secret-files.js';
import { tempLayouts } from './support/security-setup.js';

const setup = tempLayouts();

const SECRETS = [
  'prod.env', 'deploy/staging.env', '.envrc', '.ssh-less/id_dsa', 'keys/id_dsa.pub.bak', 'my-project-service-account-1234.json', 'gcp/serviceAccount.json',
  '.yarnrc.yml', '.yarnrc', 'infra/terraform.tfvars', 'infra/prod.auto.tfvars', 'infra/terraform.tfstate', '.my.cnf', 'putty/server.ppk',
  'android/release.keystore', 'java/store.jks', 'config/gh/hosts.yml', '.cargo/credentials.toml', '.s3cfg', '.vault-token', 'AuthKey_ABC.p8',
];
const ORDINARY = ['env.ts', 'src/environment.md', '.env.example', 'example.env', 'accounts.json', 'terraform/main.tf', 'hosts.yml', 'keystore.md', 'docs/service.json'];

describe('secret file names', () => {
  it('knows the wider family of credential files and leaves look-alikes alone', () => {
    for (const path of SECRETS) expect(isSecretPath(path), path).toBe(true);
    for (const path of ORDINARY) expect(isSecretPath(path), path).toBe(false);
  });

  it('read_file, grep with either engine and list_files apply the same predicate to every one of them', async () => {
    const { workspace } = setup();
    for (const path of [...SECRETS, ...ORDINARY]) {
      mkdirSync(dirname(join(workspace, path)), { recursive: true });
      writeFileSync(join(workspace, path), `token-${isSecretPath(path) ? 'hidden' : 'shown'}\n`);
    }
    for (const ripgrep of [false, 'auto'] as const) {
      const registry = new ToolRegistry([...createSearchTools({ ripgrep }), ...createFileTools()]);
      const call = async (name: string, args: unknown) => (await registry.invoke({ id: 'c', name, arguments: JSON.stringify(args) }, { workspace })).content;
      const grep = await call('grep', { pattern: 'token-' });
      expect(grep, String(ripgrep)).not.toContain('token-hidden');
      expect(grep.match(/token-shown/g)?.length, String(ripgrep)).toBe(ORDINARY.length);
      const listing = await call('list_files', {});
      for (const path of SECRETS) expect(listing, path).not.toContain(path);
      for (const path of ORDINARY) expect(listing, path).toContain(path);
      for (const path of SECRETS) expect(await call('read_file', { path }), path).toContain('looks like a secrets file');
    }
  });
});
