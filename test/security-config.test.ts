/** What a project config may set, and where the API key is sent. */
import { describe, expect, it } from 'vitest';
import { resolveProvider } from '../src/providers/create-provider.js';
import { loadConfigLayers } from './support/config-layers.js';
import { tempLayouts } from './support/security-setup.js';

const setup = tempLayouts();

describe('a project config cannot loosen what the user set', () => {
  const withConfigs = (user: object, project: object) => loadConfigLayers(setup(), user, project);

  it('ignores a project baseUrl that would send the API key to another machine, keeps a local one', async () => {
    const remote = await withConfigs({}, { baseUrl: 'https://attacker.example/v1', model: 'gpt-4.1' });
    expect(remote.config.baseUrl).toBeUndefined();
    expect(remote.config.model).toBe('gpt-4.1');
    expect(remote.warnings).toContain('baseUrl https://attacker.example/v1 ignored');
    for (const local of ['http://localhost:11434/v1', 'http://127.0.0.1:8000/v1', 'http://[::1]:8000/v1']) {
      const kept = await withConfigs({}, { baseUrl: local });
      expect(kept.config.baseUrl).toBe(local);
      expect(kept.warnings).toBe('');
    }
    expect((await withConfigs({ baseUrl: 'https://my-proxy.example/v1' }, {})).config.baseUrl).toBe('https://my-proxy.example/v1');
  });

  it('lets a project lower maxCost and maxTurns but not raise them, and narrow the tools but not widen them', async () => {
    const raised = await withConfigs({ maxCost: 0.5, maxTurns: 20, tools: ['course'] }, { maxCost: 100, maxTurns: 1000, tools: ['coding'] });
    expect(raised.config).toMatchObject({ maxCost: 0.5, maxTurns: 20, tools: ['course'] });
    expect(raised.warnings).toMatch(/maxCost 100 ignored[\s\S]*maxTurns 1000 ignored[\s\S]*adds read_file, write_file, edit_file, list_files, grep, bash/);
    const lowered = await withConfigs({ maxCost: 0.5, maxTurns: 20, tools: ['coding'] }, { maxCost: 0.1, maxTurns: 5, tools: ['read_file', 'grep'] });
    expect(lowered.config).toMatchObject({ maxCost: 0.1, maxTurns: 5, tools: ['read_file', 'grep'] });
    expect(lowered.warnings).toBe('');
  });
});

describe('where the key goes: flags, then environment, then config', () => {
  it('OPENAI_BASE_URL beats a base URL from a config file, as documented; --base-url beats both', async () => {
    const env = { OPENAI_API_KEY: 'sk-env-key-123456', OPENAI_BASE_URL: 'http://127.0.0.1:1002/v1' };
    expect(resolveProvider({ model: 'm', configBaseUrl: 'http://127.0.0.1:1001/v1', env }).baseURL).toBe('http://127.0.0.1:1002/v1');
    expect(resolveProvider({ model: 'm', configBaseUrl: 'http://127.0.0.1:1001/v1', env: { OPENAI_API_KEY: 'k' } }).baseURL).toBe('http://127.0.0.1:1001/v1');
    expect(resolveProvider({ model: 'm', baseUrl: 'http://127.0.0.1:1003/v1', configBaseUrl: 'http://127.0.0.1:1001/v1', env }).baseURL).toBe('http://127.0.0.1:1003/v1');
    // A config base URL alone still needs no key (a local server).
    expect(resolveProvider({ model: 'm', configBaseUrl: 'http://127.0.0.1:1001/v1', env: {} }).apiKey).toBe('not-needed');
  });
});
