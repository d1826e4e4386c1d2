import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ALL_OPTIONS, parseCliArgs } from '../src/cli/parse-command-line.js';
import { loadConfig } from '../src/cli/settings/config.js';
import { configSchema } from '../src/cli/settings/config-schema.js';
import { resolveSettings } from '../src/cli/setup/resolve-settings.js';
import { selectTools } from '../src/cli/setup/select-tools.js';
import { settingsMarkdown } from '../src/cli/settings-doc.js';
import { CONFIG_KEYS, SETTINGS } from '../src/cli/settings/settings.js';
import { DEFAULT_TOOL_NAMES, TOOL_GROUPS } from '../src/cli/settings/tool-names.js';
import { closestOption, unknownOptionMessage } from '../src/cli/args/unknown-option.js';
import { courseTools } from '../src/tools/builtin/course.js';

const temps: string[] = [];
afterEach(() => {
  for (const dir of temps.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A workspace with the given user and project config files, and the environment that finds them. */
async function configs(user: object | undefined, project: object | undefined) {
  const root = mkdtempSync(join(tmpdir(), 'vibe-settings-'));
  temps.push(root);
  const workspace = join(root, 'ws');
  const env = { XDG_CONFIG_HOME: join(root, 'config') };
  mkdirSync(join(workspace, '.vibe-agent'), { recursive: true });
  mkdirSync(join(env.XDG_CONFIG_HOME, 'vibe-agent'), { recursive: true });
  if (user) writeFileSync(join(env.XDG_CONFIG_HOME, 'vibe-agent', 'config.json'), JSON.stringify(user));
  if (project) writeFileSync(join(workspace, '.vibe-agent', 'config.json'), JSON.stringify(project));
  return { workspace, config: await loadConfig(workspace, env) };
}

describe('docs/settings.md', () => {
  it('is what scripts/settings-doc.mjs writes from the settings table (run it after changing the table)', () => {
    const written = readFileSync(join(import.meta.dirname, '..', 'docs', 'settings.md'), 'utf8');
    expect(written, 'docs/settings.md is out of date: npm run build && node scripts/settings-doc.mjs').toBe(settingsMarkdown());
  });

  it('has a row for every setting and every flag the parser accepts', () => {
    const doc = settingsMarkdown();
    for (const flag of Object.keys(ALL_OPTIONS)) expect(doc).toContain(`\`--${flag}`);
    for (const key of CONFIG_KEYS) expect(doc).toContain(`\`${key}\`:`);
    expect(doc).toContain('`VIBE_IDLE_TIMEOUT`');
  });
});

describe('the settings table', () => {
  it('is the config file schema: the same keys, nothing else', () => {
    expect(Object.keys(configSchema().shape).sort()).toEqual([...CONFIG_KEYS].sort());
    expect(configSchema().safeParse({ apiKey: 'sk-1' }).success).toBe(false);
  });

  it('names real tools: the course group and the default set', async () => {
    expect(TOOL_GROUPS.course).toEqual(courseTools.map((tool) => tool.name));
    expect((await selectTools(undefined)).map((tool) => tool.name)).toEqual(DEFAULT_TOOL_NAMES);
  });
});

describe('resolveSettings: flag > environment > project config > user config > default', () => {
  it('takes each value from the first place that has it', async () => {
    const { config } = await configs({ model: 'user-model', maxTurns: 30, temperature: 0.5 }, { model: 'project-model', maxTurns: 20 });
    const resolve = (argv: string[], env: Record<string, string> = {}) => resolveSettings(parseCliArgs([...argv, 'task']), env, config);
    expect(resolve(['--model', 'flag-model'], { VIBE_MODEL: 'env-model' }).values.model).toBe('flag-model');
    expect(resolve([], { VIBE_MODEL: 'env-model' })).toMatchObject({ values: { model: 'env-model' }, sources: { model: 'environment' } });
    expect(resolve([])).toMatchObject({ values: { model: 'project-model', maxTurns: 20, temperature: 0.5 }, sources: { model: 'config', maxTurns: 'config' } });
    expect(resolve([], { VIBE_MODEL: '' }).values.model).toBe('project-model');
    expect(resolve(['--max-turns', '7']).values.maxTurns).toBe(7);
    const defaults = resolveSettings(parseCliArgs(['task']), {}, {});
    expect(defaults).toMatchObject({ values: { provider: 'openai', model: undefined, maxTurns: 50, temperature: 0, permissionMode: 'ask', allowSecrets: false, addDirs: [] } });
    expect(defaults.sources.maxTurns).toBe('default');
  });

  it("keeps a config file's model and base URL with its provider", async () => {
    const { config } = await configs({ provider: 'ollama', model: 'qwen2.5-coder', baseUrl: 'http://127.0.0.1:11434/v1' }, undefined);
    expect(resolveSettings(parseCliArgs(['task']), {}, config).values).toMatchObject({ provider: 'ollama', model: 'qwen2.5-coder', baseUrl: 'http://127.0.0.1:11434/v1' });
    expect(resolveSettings(parseCliArgs(['task']), { VIBE_PROVIDER: 'deepseek' }, config).values).toMatchObject({ provider: 'deepseek', model: undefined, baseUrl: undefined });
    expect(resolveSettings(parseCliArgs(['--provider', 'ollama', 'task']), {}, config).values.model).toBe('qwen2.5-coder');
  });

  it('adds --add-dir to the config file\'s addDirs (relative to the workspace) and turns --yes into yolo', async () => {
    const { workspace, config } = await configs({ addDirs: ['../shared'], permissionMode: 'auto-edit' }, undefined);
    const values = resolveSettings(parseCliArgs(['--add-dir', '/tmp/extra', '--yes', 'task']), {}, config).values;
    expect(values.addDirs).toEqual([join(workspace, '..', 'shared'), '/tmp/extra']);
    expect(values.permissionMode).toBe('yolo');
    expect(resolveSettings(parseCliArgs(['task']), {}, config).values.permissionMode).toBe('auto-edit');
  });

  it('maps --yes to yolo for every sub-command that runs tools, before any of them returns', () => {
    for (const words of [['task'], ['demo'], ['acp'], ['mcp', 'serve'], ['replay', 'abc']]) {
      expect(parseCliArgs([...words, '--yes']).permissionMode, words.join(' ')).toBe('yolo');
      expect(() => parseCliArgs([...words, '--yes', '--permission-mode', 'plan']), words.join(' ')).toThrow('--yes means --permission-mode yolo');
    }
  });

  it('parses an environment variable with its row, naming the variable when it is wrong', () => {
    expect(resolveSettings(parseCliArgs(['task']), { VIBE_IDLE_TIMEOUT: '1.5' }, {}).values.idleTimeoutMs).toBe(1_500);
    expect(() => resolveSettings(parseCliArgs(['task']), { VIBE_IDLE_TIMEOUT: 'soon' }, {})).toThrow('VIBE_IDLE_TIMEOUT must be a number of seconds above 0, got "soon".');
  });

  it('lists every setting once, provider first (the rows after it may follow it)', () => {
    expect(Object.keys(SETTINGS)[0]).toBe('provider');
  });
});

describe('an unknown option', () => {
  const known = Object.keys(ALL_OPTIONS);
  it('suggests the option within two edits, or the only one it begins', () => {
    expect(closestOption('modle', known)).toBe('model');
    expect(closestOption('max-turn', known)).toBe('max-turns');
    expect(closestOption('permission', known)).toBe('permission-mode');
    expect(closestOption('jsn', known)).toBe('json');
    expect(closestOption('frobnicate', known)).toBeUndefined();
    // "p" begins several options: no guess.
    expect(closestOption('p', known)).toBeUndefined();
  });

  it('is reported in our words, with balanced quotes', () => {
    expect(unknownOptionMessage('--modle=gpt', known)).toBe('unknown option --modle=gpt (did you mean --model?)');
    expect(() => parseCliArgs(['--frobnicate', 'x'])).toThrow(/^unknown option --frobnicate\nRun "vibe-agent --help" for the options\.$/);
    expect(() => parseCliArgs(['-x', 'task'])).toThrow(/^unknown option -x\n/);
  });
});
