import { describe, expect, it } from 'vitest';
import { isSecretPath, secretBelow } from '../src/workspace/secret-files.js';

const PREFIXES = ['', '/', '/home/u/ws', '/home/u/.ssh', '/home/u/.SSH/keys', 'sub', '.aws', '/x/.AWS', 'gh', '/a/.kube', '/a/constructor', '/a/__proto__', 'a\\.gnupg', '/a/.cargo'];
const BELOW = [
  'a.ts', 'src/a.ts', 'credentials', 'CREDENTIALS', 'config', 'config.json', 'hosts.yml', '.env', '.env.example', 'x/.env.local',
  'id_rsa', 'k/id_ed25519.pub', 'server.PEM', '.ssh/known_hosts', 'deep/.aws/credentials', 'deep/credentials', 'constructor',
  'x/constructor/config', 'toString', 'my-service_account-1.json', 'back\\slash', '.gnupg', 'a\\credentials', 'credentials.toml',
];

describe('secretBelow', () => {
  it('answers as isSecretPath does for each prefix joined to each path below it', () => {
    for (let n = 1; n <= 2; n++) {
      for (let i = 0; i + n <= PREFIXES.length; i++) {
        const prefixes = PREFIXES.slice(i, i + n);
        const { test } = secretBelow(prefixes);
        for (const below of BELOW) {
          expect(test(below), `${JSON.stringify(prefixes)} + ${below}`).toBe(prefixes.some((prefix) => isSecretPath(`${prefix}/${below}`)));
        }
      }
    }
  });

  it('a folder named like an object member is an ordinary folder', () => {
    expect(isSecretPath('constructor/config')).toBe(false);
    expect(isSecretPath('__proto__/credentials')).toBe(false);
    expect(isSecretPath('.aws/credentials')).toBe(true);
  });
});
