/** Issue 19, class 7: a cloned repository's config never raises a limit past the default, nor picks where the key goes. */
import { describe, expect, it } from 'vitest';
import { parseCliArgs } from '../src/cli/parse-command-line.js';
import { resolveSettings } from '../src/cli/setup/resolve-settings.js';
import { loadConfigLayers } from './support/config-layers.js';
import { tempLayouts } from './support/security-setup.js';

const setup = tempLayouts();

const withConfigs = (user: object | undefined, project: object) => loadConfigLayers(setup(), user, project);

describe('a project may only lower a limit, and the bound is the default when the user set none', () => {
  it('maxTurns above the default is ignored whether or not a user config exists; at or below it is kept', async () => {
    for (const user of [undefined, {}]) {
      for (const raised of [100000, 51]) {
        const { config, warnings } = await withConfigs(user, { maxTurns: raised });
        expect(config.maxTurns, String(raised)).toBeUndefined();
        expect(warnings).toContain(`maxTurns ${raised} ignored`);
      }
      for (const lowered of [50, 10, 1]) expect((await withConfigs(user, { maxTurns: lowered })).config.maxTurns).toBe(lowered);
    }
    expect(resolveSettings(parseCliArgs(['hi']), {}, (await withConfigs(undefined, { maxTurns: 100000 })).config).values.maxTurns).toBe(50);
    // The user's own value is the bound when there is one, and a flag still beats everything.
    expect((await withConfigs({ maxTurns: 500 }, { maxTurns: 400 })).config.maxTurns).toBe(400);
    expect(resolveSettings(parseCliArgs(['hi', '--max-turns', '900']), {}, (await withConfigs(undefined, { maxTurns: 100000 })).config).values.maxTurns).toBe(900);
  });

  it('maxCost has no default bound, so any project value is a lowering', async () => {
    expect((await withConfigs(undefined, { maxCost: 3 })).config.maxCost).toBe(3);
    expect((await withConfigs({ maxCost: 1 }, { maxCost: 3 })).config.maxCost).toBe(1);
  });
});

describe('a project may not choose where the key goes', () => {
  it('a remote provider from the project is ignored, so --api-key goes to the provider the user chose', async () => {
    for (const provider of ['anthropic', 'openrouter', 'gemini', 'deepseek', 'no-such-vendor']) {
      const { config, warnings } = await withConfigs(undefined, { provider, model: 'their-model' });
      expect(config.provider, provider).toBeUndefined();
      expect(warnings).toContain(`provider ${provider} ignored`);
      expect(resolveSettings(parseCliArgs(['hi', '--api-key', 'sk-user-key-123456']), {}, config).values.provider).toBe('openai');
    }
    const userChose = await withConfigs({ provider: 'groq' }, { provider: 'anthropic' });
    expect(resolveSettings(parseCliArgs(['hi']), {}, userChose.config).values.provider).toBe('groq');
  });

  it('a local provider, or the one the user already chose, is kept without a warning', async () => {
    for (const provider of ['ollama', 'vllm', 'lmstudio']) {
      const { config, warnings } = await withConfigs(undefined, { provider });
      expect(config.provider).toBe(provider);
      expect(warnings).toBe('');
    }
    const same = await withConfigs({ provider: 'anthropic' }, { provider: 'anthropic', maxTurns: 5 });
    expect(same.config).toMatchObject({ provider: 'anthropic', maxTurns: 5 });
    expect(same.warnings).toBe('');
  });
});
