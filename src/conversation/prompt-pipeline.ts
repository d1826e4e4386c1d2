import type { ImageRef } from '../contracts/messages.js';
import type { Authorize } from '../contracts/tool.js';
import { attachedLines, attachMentionedFiles, withAttachments } from '../mentions/attach-mentions.js';
import { promptWithPlan } from './approved-plan-prompt.js';
import { attachImages } from './attach-images.js';
import { startRunPrompt } from './command-prompt.js';
import type { ConversationParts } from './conversation-parts.js';
import type { PromptRefusal } from './conversation-types.js';
import { promptThroughHooks, type PromptSession } from './prompt-hooks.js';

export type PreparedPrompt = { ok: true; input: string; model: string | undefined; images: ImageRef[]; notes: string[] } | { ok: false; refusal: PromptRefusal };

export interface PromptStep {
  text: string;
  authorize: Authorize;
  signal: AbortSignal;
  session: PromptSession;
  images?: ImageRef[];
  imagePaths?: string[];
  /** An approved plan this prompt carries out. */
  plan?: string;
}

/**
 * What a typed prompt becomes before the model sees it, the same for every front end: a custom
 * command or MCP prompt expanded (its model and allowed tools applied), the user's own @mentions
 * attached, SessionStart and UserPromptSubmit hooks run (a block refuses it), images loaded and
 * fitted, an approved plan appended. Any step may refuse, with a reason for the user.
 */
export async function preparePrompt(parts: ConversationParts, step: PromptStep): Promise<PreparedPrompt> {
  const { text, authorize, signal } = step;
  const started = await startRunPrompt(text, { commands: parts.commands, tools: parts.tools, scope: parts.scope, authorize, workspace: parts.workspace, signal, ...(parts.mcpPrompt ? { mcpPrompt: parts.mcpPrompt } : {}) });
  if (!started.ok) return refused('command', started.reason);
  // Mentions are the user's own: a custom command's or an MCP prompt's expansion is not searched.
  const mentioned = await attachMentionedFiles(started.prompt === text ? text : '', { tools: parts.tools, authorize, workspace: parts.workspace, signal });
  if (!mentioned.ok) return refused('mentions', mentioned.reason);
  const hooked = await promptThroughHooks(parts.hooks, started.prompt, step.session);
  if ('blocked' in hooked) return refused('hook', `the UserPromptSubmit hook blocked the prompt: ${hooked.blocked}`);
  const model = started.model ?? parts.model;
  const attached = await attachImages({ paths: step.imagePaths ?? [], preset: parts.preset.name, protocol: parts.preset.protocol, model });
  if (!attached.ok) return refused('images', attached.reason);
  const input = withAttachments(step.plan ? promptWithPlan(hooked.input, step.plan) : hooked.input, mentioned.section);
  return { ok: true, input, model: started.model, images: [...(step.images ?? []), ...attached.images, ...mentioned.images], notes: [...attached.notes, ...attachedLines(mentioned.attached)] };
}

const refused = (stage: PromptRefusal['stage'], reason: string): PreparedPrompt => ({ ok: false, refusal: { stage, reason } });
