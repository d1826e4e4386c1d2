import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const REGISTER = join(ROOT, 'test/fixtures/module-log/register.mjs');

/** The module URLs a Node process resolved while running `code` (an ES module). */
function modulesResolvedBy(code: string): string[] {
  const dir = mkdtempSync(join(tmpdir(), 'vibe-modules-'));
  try {
    const log = join(dir, 'modules.txt');
    const result = spawnSync(process.execPath, ['--import', REGISTER, '--input-type=module', '-e', code], { cwd: ROOT, env: { ...process.env, MODULE_LOG: log }, encoding: 'utf8' });
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    return readFileSync(log, 'utf8').trim().split('\n');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const SDKS = ['node_modules/openai/', 'node_modules/@anthropic-ai/sdk/', 'node_modules/@google/genai/', 'node_modules/gpt-tokenizer/'];

describe('the library entry loads a provider SDK only when that provider sends a request', () => {
  it('importing dist/index.js and constructing every provider resolves no SDK and no tokenizer', () => {
    const modules = modulesResolvedBy(`
      const lib = await import('./dist/index.js');
      new lib.OpenAIProvider({ apiKey: 'k' });
      new lib.ResponsesProvider({ apiKey: 'k' });
      new lib.AnthropicProvider({ apiKey: 'k' });
      new lib.GoogleProvider({ apiKey: 'k' });
    `);
    expect(modules.some((url) => url.endsWith('/dist/index.js'))).toBe(true);
    expect(modules.filter((url) => SDKS.some((sdk) => url.includes(sdk)))).toEqual([]);
  });

  it('the hook does see an SDK when one is imported (the check above can fail)', () => {
    const modules = modulesResolvedBy(`await import('openai');`);
    expect(modules.some((url) => url.includes('node_modules/openai/'))).toBe(true);
  });
});
