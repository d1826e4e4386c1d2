import { parsePlainMapping } from '../skills/plain-yaml.js';
import { yamlPackage } from '../skills/yaml-package.js';
import { z } from 'zod';
import type { AgentDefinition } from './agent-definition.js';

const NAME = /^[a-z0-9][a-z0-9_-]{0,63}$/i;

/** Front matter as written: tools as a list or a comma-separated string (Claude Code writes the latter). */
const makeFrontMatterSchema = () => z.object({
  name: z.string().regex(NAME, 'letters, digits, - and _ (at most 64)'),
  description: z.string().min(1),
  tools: z.union([z.string(), z.array(z.string())]).optional(),
  model: z.string().min(1).optional(),
  'max-cost': z.number().positive().optional(),
  'max-turns': z.number().int().positive().optional(),
  'max-tokens': z.number().int().positive().optional(),
});

let frontMatterSchema: ReturnType<typeof makeFrontMatterSchema> | undefined;

/** One agent file: front matter between `---` lines, then the system prompt. Throws with a reason when malformed. */
export function parseAgentFile(text: string, source: string): AgentDefinition {
  const match = /^---\r?\n([\s\S]*?)\r?\n---\r?\n?([\s\S]*)$/.exec(text);
  if (!match) throw new Error('no front matter (a block between --- lines at the top)');
  const yaml = match[1]!;
  // Built at the first agent file: most runs read none (start-up cost).
  frontMatterSchema ??= makeFrontMatterSchema();
  const parsed = frontMatterSchema.safeParse(parsePlainMapping(yaml) ?? yamlPackage().parse(yaml) ?? {});
  if (!parsed.success) throw new Error(parsed.error.issues.map((issue) => `${issue.path.join('.') || '(front matter)'}: ${issue.message}`).join('; '));
  const front = parsed.data;
  const tools = typeof front.tools === 'string' ? front.tools.split(',') : front.tools;
  // Claude Code's "inherit" means the parent's model, as no model does here.
  const model = front.model === 'inherit' ? undefined : front.model;
  return {
    name: front.name,
    description: front.description,
    prompt: match[2]!.trim(),
    source,
    ...(tools ? { tools: tools.map((tool) => tool.trim()).filter(Boolean) } : {}),
    ...(model ? { model } : {}),
    ...(front['max-cost'] !== undefined ? { maxCost: front['max-cost'] } : {}),
    ...(front['max-turns'] !== undefined ? { maxTurns: front['max-turns'] } : {}),
    ...(front['max-tokens'] !== undefined ? { maxTokens: front['max-tokens'] } : {}),
  };
}
