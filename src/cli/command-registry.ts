import type { Command } from './args/command-spec.js';
import { acpSpec } from './commands/acp/spec.js';
import { demoSpec } from './commands/demo/spec.js';
import { doctorSpec } from './commands/doctor/spec.js';
import { evalSpec } from './commands/eval/spec.js';
import { importSpec } from './commands/import/spec.js';
import { indexSpec } from './commands/index/spec.js';
import { lspSpec } from './commands/lsp/spec.js';
import { mcpSpec } from './commands/mcp/spec.js';
import { memorySpec } from './commands/memory/spec.js';
import { replaySpec } from './commands/replay/spec.js';
import { rewindSpec } from './commands/rewind/spec.js';
import { sessionsSpec } from './commands/sessions/spec.js';
import { skillsSpec } from './commands/skills/spec.js';
import { serveSpec } from './commands/serve/spec.js';
import { traceSpec } from './commands/trace/spec.js';
import { attachSpec } from './commands/attach/spec.js';
import { agentsSpec, approveSpec, discardSpec, landSpec, logsSpec, stopSpec } from './commands/background/spec.js';

/** Every sub-command, in the order of `vibe-agent --help`; a first word naming one runs it. */
export const COMMANDS: readonly Command[] = [demoSpec, sessionsSpec, importSpec, rewindSpec, traceSpec, replaySpec, memorySpec, skillsSpec, indexSpec, doctorSpec, evalSpec, mcpSpec, lspSpec, acpSpec, serveSpec, agentsSpec, logsSpec, approveSpec, attachSpec, stopSpec, landSpec, discardSpec];

export function findCommand(name: string): Command | undefined {
  return COMMANDS.find((command) => command.name === name);
}
