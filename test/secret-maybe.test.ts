import { expect, it } from 'vitest';
import { isSecretPath, looksSecret, MAYBE_SECRET } from '../src/workspace/secret-files.js';

function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => ((state = (state * 1664525 + 1013904223) >>> 0) / 2 ** 32);
}

// Pieces of secret paths and of near misses; case is flipped at random, and a few characters lower-case to ASCII.
const PIECES = [
  '.env', '.env.local', '.env.example', 'example.env', '.envrc', '.npmrc', 'credentials', 'credentials.json', 'config', 'config.json',
  'hosts.yml', 'auth.json', 'access_tokens.db', '.aws', '.docker', '.kube', 'gh', '.cargo', '.gem', '.composer', 'gcloud', '.ssh', '.gnupg',
  'id_rsa', 'id_ed25519.pub', 'server.pem', 'a.key', 'prod.tfvars.json', 'state.tfstate.backup', 'my-service_account-1.json', 'serviceaccount.json',
  'src', 'index.ts', 'keys', 'pem', 'env', 'ssh', '\u212a', 'x.\u212aey', '.\u212aube', '\u0130', '\u017f', 'é', '😀', 'secrets.yaml', 'terraform.rc', '.my.cnf',
];

it('every path isSecretPath would call a secret passes MAYBE_SECRET first, so the quick test changes no answer', () => {
  const next = random(11);
  let secrets = 0;
  for (let round = 0; round < 40_000; round++) {
    const parts = Array.from({ length: 1 + Math.floor(next() * 4) }, () => {
      const piece = PIECES[Math.floor(next() * PIECES.length)]!;
      return next() < 0.3 ? [...piece].map((c) => (next() < 0.5 ? c.toUpperCase() : c)).join('') : piece;
    });
    let path = parts.join(next() < 0.8 ? '/' : '\\');
    if (next() < 0.1) path = `/${path}`;
    if (next() < 0.1) path += '/';
    if (looksSecret(path)) {
      secrets++;
      expect(MAYBE_SECRET.test(path), path).toBe(true);
    }
    expect(isSecretPath(path), path).toBe(looksSecret(path));
  }
  expect(secrets).toBeGreaterThan(5_000);
});
