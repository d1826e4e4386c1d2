// Writes src/tools/tool-specs.ts (and validators/, their argument checks compiled): every built-in tool's spec (and the skill tool's, read_output's and code_nav's) (name, description, JSON Schema, flags),
// taken from the tools themselves, so a run offers them without loading their code or zod.
// Run `npm run tool-specs` after changing a tool; test/tool-specs.test.ts fails when the file is stale.
import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { availableTools } from '../dist/cli/setup/select-tools.js';
import { specOf } from '../dist/tools/deferred-tool.js';
import { createSkillTool } from '../dist/skills/skill-tool.js';
import { ToolScope } from '../dist/skills/tool-scope.js';
import { createReadOutputTool } from '../dist/context/read-output.js';
import { MemoryOutputStore } from '../dist/tools/output-store.js';
import { createCodeNavTool } from '../dist/lsp/code-nav-tool.js';
import { LspServers } from '../dist/lsp/lsp-servers.js';
import { toolValidatorFiles } from './tool-validators-text.mjs';
import { loadZod } from '../dist/tools/zod-loader.js';

// The tools build their zod schemas at first need; reading them here needs zod loaded.
await loadZod();

const tools = [
  ...(await availableTools()),
  createSkillTool([], { scope: new ToolScope(), readRoots: [] }),
  createReadOutputTool(new MemoryOutputStore()),
  createCodeNavTool({ servers: new LspServers({ found: [], workspace: '.', env: {} }) }),
];
const specs = Object.fromEntries(tools.map((tool) => [tool.name, specOf(tool)]));
const text = `// Written by scripts/tool-specs.mjs (\`npm run tool-specs\`) from the tools themselves; test/tool-specs.test.ts fails when it is stale.
import type { ToolSpec } from './deferred-tool.js';

export const TOOL_SPECS: Readonly<Record<string, ToolSpec>> = ${JSON.stringify(specs, null, 2)};
`;
writeFileSync(new URL('../src/tools/tool-specs.ts', import.meta.url), text);
const validators = new URL('../src/tools/validators/', import.meta.url);
mkdirSync(validators, { recursive: true });
for (const file of readdirSync(validators)) rmSync(new URL(file, validators));
for (const [file, text] of Object.entries(toolValidatorFiles(specs))) writeFileSync(new URL(file, validators), text);
console.log(`src/tools/tool-specs.ts and validators/: ${Object.keys(specs).length} tools`);
