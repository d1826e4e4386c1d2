import type { Tool } from '../tools/define-tool.js';
import { courseTools } from '../tools/builtin/course.js';
import { rememberTool } from '../memory/remember-tool.js';
import { UsageError } from './args.js';

/** Every tool the CLI knows, by name. */
export function availableTools(): Tool[] {
  return [...courseTools, rememberTool];
}

/** The default set when --tools is not given. */
export function defaultToolNames(): string[] {
  return [...courseTools.map((tool) => tool.name), rememberTool.name];
}

/** Resolves --tools names (and the `course` alias) to tools; unknown names are a usage error. */
export function selectTools(names: string[] | undefined): Tool[] {
  const all = new Map(availableTools().map((tool) => [tool.name, tool]));
  const wanted = (names ?? defaultToolNames()).flatMap((name) => (name === 'course' ? courseTools.map((tool) => tool.name) : [name]));
  const unknown = wanted.filter((name) => !all.has(name));
  if (unknown.length) throw new UsageError(`Unknown tool${unknown.length > 1 ? 's' : ''}: ${unknown.join(', ')}. Available: course, ${[...all.keys()].join(', ')}.`);
  return [...new Set(wanted)].map((name) => all.get(name)!);
}
