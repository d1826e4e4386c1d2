import { afterEach, describe, expect, it } from 'vitest';
import { createTheme } from '../src/cli/display/theme.js';
import { InteractiveSession } from '../src/cli/tui/interactive.js';
import { discoverCommands } from '../src/commands/discover-commands.js';
import { ScriptedProvider } from '../src/providers/scripted.js';
import { ToolScope } from '../src/skills/tool-scope.js';
import { ToolRegistry } from '../src/tools/registry.js';
import { skillRepo, writeCommands, type SkillRepo } from './support/skill-fixtures.js';
import { VirtualTerminal } from './support/virtual-terminal.js';
import { testServices } from './support/tui-services.js';
import { FakeInput } from './support/fake-input.js';

let fixture: SkillRepo;
afterEach(() => fixture?.cleanup());

describe('custom commands in the interactive session', () => {
  it('/help lists them, Tab completes them, and /name args sends the expanded prompt to the command’s model', async () => {
    fixture = skillRepo();
    writeCommands(fixture);
    const { commands } = discoverCommands(fixture.workspace, fixture.env);
    const terminal = new VirtualTerminal(100, 30);
    const input = new FakeInput();
    const provider = new ScriptedProvider([{ text: 'the-review-is-done' }]);
    const tools = new ToolRegistry();
    const scope = new ToolScope();
    // The conversation core expands the command (its model, its tool scope); the terminal lists and completes it.
    const services = await testServices(provider, { tools, system: 's', workspace: fixture.workspace, parts: { commands, scope } }, {
      customCommands: () => commands.map((c) => ({ name: c.name, usage: `${c.name}${c.argumentHint ? ` ${c.argumentHint}` : ''}`, help: c.description ?? '' })),
    });
    const session = new InteractiveSession({ input, output: terminal.output, theme: createTheme(false), services, providerName: provider.name, model: 'm', tools, workspace: fixture.workspace, maxTurns: 5 });
    const exited = session.run();
    input.type('/help\r');
    await terminal.waitFor((s) => s.includes('/review <file> [focus]  Review a file'));
    input.type('/rev\t');
    await terminal.waitFor((s) => /^› \/review\s*$/m.test(s));
    input.type('src/app.ts speed\r');
    await terminal.waitFor((s) => s.includes('the-review-is-done') && !/working/.test(s.split('\n').at(-1)!));
    expect(provider.requests[0]!.model).toBe('review-model');
    expect(provider.requests[0]!.messages.at(-1)).toEqual({ role: 'user', content: 'Review src/app.ts with a focus on speed.\nAll arguments: src/app.ts speed' });
    expect(scope.refusal('bash')).toMatch(/while the command \/review is active/);
    input.type('\x04');
    expect(await exited).toBe(0);
  });
});
