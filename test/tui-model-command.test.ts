import { describe, expect, it } from 'vitest';
import { emptyUsage } from '../src/contracts/messages.js';
import { createTheme } from '../src/cli/display/theme.js';
import { runSlashCommand, type CommandContext } from '../src/cli/tui/slash-commands.js';
import { catalogModels } from '../src/providers/shared/model-catalog.js';

function context(known: string[] | undefined, pick?: (items: string[]) => number | undefined) {
  const state = { model: 'gpt-4o', printed: [] as string[], chosen: [] as string[] };
  // Only what /model reads; the rest of a session's context is not needed here.
  const c = {
    theme: createTheme(false),
    services: { modelCatalog: () => known } as unknown as CommandContext['services'],
    model: state.model,
    messages: [],
    usage: emptyUsage(),
    cost: undefined,
    tools: [],
    print: (lines: string[]) => state.printed.push(...lines),
    setModel: (model: string) => (state.model = model),
    setMessages: () => undefined,
    startOver: () => undefined,
    carry: () => undefined,
    exit: () => undefined,
    signal: new AbortController().signal,
    ...(pick ? { choose: async (_title: string, items: string[]) => pick(items) } : {}),
  } as unknown as CommandContext;
  return { c, state };
}

describe('/model against the provider catalog', () => {
  const openai = catalogModels('openai')!;

  it('the catalog lists the provider models', () => {
    expect(openai).toContain('gpt-4o-mini');
  });

  it('refuses a typo with the nearest names and changes nothing; a listed or dated name switches', async () => {
    const { c, state } = context(openai);
    await runSlashCommand('/model gpt-4o-mnii', c);
    expect(state.model).toBe('gpt-4o');
    expect(state.printed.at(-1)).toMatch(/^No model "gpt-4o-mnii" in this provider's catalog\. Nearest: gpt-4o-mini[,.].* The model is still gpt-4o\.$/);
    await runSlashCommand('/model gpt-4o-mini', c);
    expect(state.model).toBe('gpt-4o-mini');
    await runSlashCommand('/model gpt-4o-2024-08-06', c);
    expect(state.model).toBe('gpt-4o-2024-08-06');
  });

  it('alone, opens a picker of the catalog; Esc keeps the model', async () => {
    const picked = context(openai, (items) => items.indexOf('gpt-4o-mini'));
    await runSlashCommand('/model', picked.c);
    expect(picked.state.model).toBe('gpt-4o-mini');
    const cancelled = context(openai, () => undefined);
    await runSlashCommand('/model', cancelled.c);
    expect(cancelled.state.model).toBe('gpt-4o');
  });

  it('with no catalog (a local server) takes the name as given', async () => {
    const { c, state } = context(undefined);
    await runSlashCommand('/model my-local-model', c);
    expect(state.model).toBe('my-local-model');
  });
});
