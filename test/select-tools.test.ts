import { describe, expect, it } from 'vitest';
import { availableTools, selectTools, TOOL_FAMILIES } from '../src/cli/setup/select-tools.js';
import { TOOL_GROUPS } from '../src/cli/settings/tool-names.js';
import { UsageError } from '../src/cli/settings/usage-error.js';

describe('selectTools: only the families asked for are made', () => {
  it('each family makes exactly the tools its table row names, in order', async () => {
    for (const family of TOOL_FAMILIES) {
      expect((await family.make({}, {})).map((tool) => tool.name)).toEqual(family.names);
    }
    expect((await availableTools()).map((tool) => tool.name)).toEqual(TOOL_FAMILIES.flatMap((family) => family.names));
  });

  it('resolves groups and names in the order given, once each', async () => {
    expect((await selectTools(['calculator', 'course', 'todo_read'])).map((tool) => tool.name)).toEqual(['calculator', 'current_time', 'fetch_url', 'todo_read']);
    expect((await selectTools(['coding'])).map((tool) => tool.name)).toEqual(TOOL_GROUPS.coding);
  });

  it('an unknown name is a usage error that lists what exists', async () => {
    const error = await selectTools(['calculator', 'nope']).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(UsageError);
    expect((error as Error).message).toMatch(/^Unknown tool: nope\. Available: coding, course, agents, read_file, write_file, .*todo_read, current_time, calculator, fetch_url\.$/);
  });
});
