import type { Message, Usage } from '../../contracts/messages.js';
import type { Spent } from '../../session/session-spent.js';
import { oneLine } from '../display/summarize.js';
import { visibleText } from '../display/visible-text.js';
import type { InteractiveServices } from './services.js';
import { formatTokens } from './status-line.js';
import { earlierTurnLines } from './earlier-turns.js';
import type { Theme } from '../display/theme.js';
import { cacheShare } from './cache-share.js';
import { formatCost } from '../display/format-cost.js';
import { editDistance } from '../../contracts/did-you-mean.js';

/** What a slash command may read and change in the session. */
export interface CommandContext {
  theme: Theme;
  services: InteractiveServices;
  model: string;
  messages: Message[];
  usage: Usage;
  /** Session cost in US dollars, when known. */
  cost: number | undefined;
  tools: string[];
  print(lines: string[]): void;
  setModel(model: string): void;
  /** /plan: into plan mode or out of it; says which. */
  togglePlan(): string;
  setMessages(messages: Message[]): void;
  /** /resume: the resumed session's tokens and cost become the totals. */
  carry(spent: Spent): void;
  /** A fresh conversation: tokens and cost counted from zero. */
  startOver(): void;
  exit(): void;
  /** /init: the next turn asks the model for AGENTS.md, its write shown as a diff before it is made. */
  init(): void;
  signal: AbortSignal;
  /** Lets the user pick one of `items` (↑/↓, Enter; Esc cancels): its index, or undefined. */
  choose(title: string, items: string[], initial: number): Promise<number | undefined>;
  /** /bg: moves the session to the background (the session server goes on with it) and leaves. */
  background(): void;
  /** /detach: leaves an attached session running. */
  detach(): void;
  /** /goal with its argument: starts a goal, shows it, or clears it. */
  goal(argument: string): void;
  /** Asks a yes/no question under `lines`; anything but y is no. */
  confirm(lines: string[]): Promise<boolean>;
}

export interface SlashCommand {
  name: string;
  /** Shown in /help, e.g. "<name>". */
  usage?: string;
  help: string;
  run(argument: string, context: CommandContext): Promise<void> | void;
}

/** /resume alone: the saved sessions, newest first as /sessions lists them, to pick from. */
async function pickSessionId(c: CommandContext): Promise<string | undefined> {
  const sessions = await c.services.listSessions();
  if (!sessions.length) {
    c.print([c.theme.yellow('No saved sessions to resume.')]);
    return undefined;
  }
  const picked = await c.choose('Resume which session?', sessions.map((s) => `${s.id}  ${oneLine(s.title ?? '', 60)}${s.detail ? `  ${s.detail}` : ''}`), 0);
  return picked === undefined ? undefined : sessions[picked]!.id;
}

/** Why `name` is not one of the provider's `known` models (with the nearest ones), or undefined when it is. */
export function unknownModel(name: string, known: readonly string[]): string | undefined {
  const lower = name.toLowerCase();
  // A dated or tagged name of a listed model ("gpt-4o-2024-08-06") is that model.
  const dated = /^[-@:](\d{4}-?\d{2}-?\d{2}|\d{4}|latest|preview)$/;
  if (known.some((model) => lower === model.toLowerCase() || (lower.startsWith(model.toLowerCase()) && dated.test(lower.slice(model.length))))) return undefined;
  const near = [...known].map((model) => ({ model, distance: editDistance(lower, model.toLowerCase()) })).sort((a, b) => a.distance - b.distance).slice(0, 3).map((near) => near.model);
  return `No model "${name}" in this provider's catalog. Nearest: ${near.join(', ')}.`;
}

export const SLASH_COMMANDS: SlashCommand[] = [
  {
    name: 'help',
    help: 'list the commands and keys',
    run: (_, c) =>
      c.print([
        ...SLASH_COMMANDS.map((command) => `  ${c.theme.bold(`/${command.name}${command.usage ? ` ${command.usage}` : ''}`)}  ${c.theme.dim(command.help)}`),
        ...customCommandHelp(c),
        c.theme.dim('  Enter sends · Shift+Enter, Alt+Enter or a trailing \\ adds a line · ↑/↓ history · Tab completes'),
        c.theme.dim('  Shift+Tab cycles the permission mode (ask, auto-edit, plan) · Ctrl-O expands or folds subagent blocks'),
        c.theme.dim('  Esc or Ctrl-C stops the running turn, and at a question answers no and stops it · Ctrl-C clears the prompt; twice at an empty prompt exits · Ctrl-D exits'),
      ]),
  },
  {
    name: 'model',
    usage: '[name]',
    help: 'switch the model for the next turns (same provider); alone: pick one',
    run: async (argument, c) => {
      const known = c.services.modelCatalog?.();
      if (!argument) {
        if (!known?.length || !c.choose) return c.print([`Model: ${c.model}`]);
        const picked = await c.choose(`Model (now ${c.model})`, known, Math.max(0, known.indexOf(c.model)));
        if (picked === undefined) return;
        argument = known[picked]!;
      }
      const refused = known ? unknownModel(argument, known) : undefined;
      if (refused) return c.print([c.theme.yellow(`${refused} The model is still ${c.model}.`)]);
      c.setModel(argument);
      c.print([`Model switched to ${c.theme.bold(argument)}.`]);
    },
  },
  {
    name: 'init',
    help: 'have the model write or improve AGENTS.md (you see the diff before it is written)',
    run: (_, c) => c.init(),
  },
  {
    name: 'compact',
    help: 'summarise older turns to free context',
    run: async (_, c) => {
      const result = await c.services.compact(c.messages, { model: c.model, signal: c.signal });
      if (c.signal.aborted && !result.compacted) return c.print([c.theme.yellow('⊘ /compact cancelled; the conversation is unchanged.')]);
      if (!result.compacted) return c.print(['Nothing old enough to compact yet.']);
      c.setMessages(result.messages);
      const sizes = result.tokensBefore !== undefined && result.tokensAfter !== undefined ? `: ${formatTokens(result.tokensBefore)} → ${formatTokens(result.tokensAfter)} tokens` : '';
      c.print([`Compacted${sizes}.`]);
    },
  },
  {
    name: 'clear',
    help: 'start a fresh conversation',
    run: async (_, c) => {
      await c.services.clear();
      c.startOver();
      c.print(['Conversation cleared.']);
    },
  },
  {
    name: 'sessions',
    help: 'list saved sessions',
    run: async (_, c) => {
      const sessions = await c.services.listSessions();
      if (!sessions.length) return c.print(['No saved sessions.']);
      // One row per session, as `vibe-agent sessions` prints them: a long or multi-line first prompt is cut.
      c.print(sessions.map((s) => `  ${c.theme.bold(s.id)}  ${oneLine(s.title ?? '', 60)}${s.detail ? `  ${c.theme.dim(s.detail)}` : ''}`));
    },
  },
  {
    name: 'resume',
    usage: '[id]',
    help: 'continue a saved session (without an id: pick one)',
    run: async (argument, c) => {
      const id = argument || (await pickSessionId(c));
      if (!id) return;
      const session = await c.services.resume(id);
      c.setMessages(session.messages);
      if (session.spent) c.carry?.(session.spent);
      // The earlier turns are drawn again, folded as they were.
      c.print([...earlierTurnLines(session.messages, c.theme, 100), '', `Resumed session ${c.theme.bold(session.id)} (${session.messages.length} messages).`]);
    },
  },
  {
    name: 'cost',
    help: 'tokens used and cost so far',
    run: (_, c) => {
      const u = c.usage;
      const cost = c.cost;
      c.print([
        `Tokens: ${formatTokens(u.inputTokens)} in (${formatTokens(u.cachedInputTokens)} read from cache, ${formatTokens(u.cacheWriteTokens)} written to it), ${formatTokens(u.outputTokens)} out (${formatTokens(u.reasoningTokens)} reasoning).`,
        ...(cacheShare(u) ? [`Prompt cache: ${cacheShare(u)} of input read from cache.`] : []),
        cost === undefined ? c.theme.dim('Cost: unknown for this model.') : `Cost: ${formatCost(cost)}`,
      ]);
    },
  },
  {
    name: 'tools',
    help: 'the tools the model can call',
    run: (_, c) => c.print([c.tools.length ? `Tools: ${c.tools.join(', ')}` : 'No tools.']),
  },
  {
    name: 'memory',
    help: 'the project memory files in effect',
    run: async (_, c) => {
      const files = await c.services.memory();
      if (!files.length) return c.print(['No memory files (AGENTS.md) found.']);
      c.print(files.map((file) => `  ${c.theme.bold(file.path)} ${c.theme.dim(`${file.content.split('\n').length} lines`)}`));
    },
  },
  {
    name: 'skills',
    help: 'the skills and custom commands found, and where each came from',
    run: (_, c) => c.print(c.services.skills()),
  },
  {
    name: 'mcp',
    help: 'the MCP servers: state, tools, start time, where each is configured',
    run: (_, c) => c.print(c.services.mcpServers()),
  },
  {
    name: 'bashes',
    usage: '[kill ID]',
    help: 'background shell jobs (killed when you leave); kill ID ends one, its child processes included',
    run: async (argument, c) => {
      const kill = /^kill\s+(\S+)$/.exec(argument);
      if (kill) {
        const id = kill[1]!;
        const job = c.services.backgroundJobs().find((candidate) => candidate.id === id);
        if (!job) return c.print([c.theme.yellow(`No background job ${visibleText(id)}; /bashes lists them.`)]);
        if (!job.running) return c.print([`${job.id} is not running any more.`]);
        return c.print([(await c.services.killBackgroundJob(id)) ? `Killed ${job.id} (pid ${job.pid}): ${oneLine(job.command, 60)}` : c.theme.yellow(`${job.id} had already ended.`)]);
      }
      if (argument) return c.print([c.theme.yellow('Usage: /bashes, or /bashes kill ID.')]);
      const jobs = c.services.backgroundJobs();
      if (!jobs.length) return c.print(['No background jobs.']);
      c.print(
        jobs.map((job) => {
          const state = job.running ? c.theme.green('running') : c.theme.dim(job.exitCode === null ? 'killed' : `exited ${job.exitCode ?? ''}`.trim());
          return `  ${c.theme.bold(job.id)}  ${state}  ${c.theme.dim(`pid ${job.pid}`)}  ${oneLine(job.command, 60)}`;
        }),
      );
    },
  },
  {
    name: 'rewind',
    usage: '[N] [--force]',
    help: 'pick a prompt to go back before (files and conversation); /rewind N goes to point N',
    run: async (argument, c) => {
      const words = argument.split(/\s+/).filter(Boolean);
      const number = words.find((word) => /^\d+$/.test(word));
      if (!number) {
        const list = await c.services.checkpoints();
        if (!list.length) return c.print(['Nothing to rewind yet: this session has no prompts.']);
        const numbers = c.services.checkpointNumbers();
        const picked = await c.choose('Rewind to which point? Files and conversation go back to before that prompt (type its number or use ↑/↓).', list, list.length - 1);
        if (picked === undefined) return c.print([c.theme.dim('Rewind cancelled; nothing was changed.')]);
        return rewindTo(numbers[picked], words.includes('--force'), c);
      }
      await rewindTo(Number(number), words.includes('--force'), c);
    },
  },
  {
    name: 'undo',
    usage: '[--force]',
    help: "undo the last prompt (its files and its part of the conversation)",
    run: async (argument, c) => {
      await rewindTo(undefined, argument.includes('--force'), c);
    },
  },
  {
    name: 'goal',
    usage: '[CONDITION | clear]',
    help: 'work turn after turn until CONDITION holds, as an independent judge checks; /goal shows it, /goal clear ends it',
    run: (argument, c) => c.goal(argument),
  },
  {
    name: 'plan',
    help: 'plan mode on or off (also Shift+Tab): only read-only tools run, then you approve the plan and pick the mode to carry it out',
    run: (_, c) => c.print([c.togglePlan()]),
  },
  { name: 'bg', help: 'move this session to the background: the session server goes on with it (a running turn too), vibe-agent attach brings it back', run: (_, c) => c.background() },
  { name: 'detach', help: 'attached (vibe-agent attach): leave, the session goes on in the background (also Ctrl-D, /exit)', run: (_, c) => c.detach() },
  { name: 'exit', help: 'leave (also Ctrl-D)', run: (_, c) => c.exit() },
];

async function rewindTo(n: number | undefined, force: boolean, c: CommandContext): Promise<void> {
  const t = c.theme;
  const ask = (paths: string[]) =>
    c.confirm([
      `${t.yellow('?')} ${t.bold('These files changed after the agent left them; the rewind would overwrite them:')}`,
      ...paths.slice(0, 20).map((path) => `    ${visibleText(path)}`),
      ...(paths.length > 20 ? [t.dim(`    … ${paths.length - 20} more`)] : []),
      `  Overwrite them? ${t.bold('y')} yes   ${t.bold('n')} no ${t.dim('(Enter, Esc = no)')}`,
    ]);
  const result = await c.services.rewind(n, { force, confirm: ask });
  if (result.messages) c.setMessages(result.messages);
  c.print(result.lines);
}

function customCommandHelp(c: CommandContext): string[] {
  const custom = c.services.customCommands();
  if (!custom.length) return [];
  return [c.theme.dim('  Custom commands:'), ...custom.map((command) => `  ${c.theme.bold(`/${command.usage}`)}  ${c.theme.dim(command.help)}`)];
}

/** True when `text` runs a built-in command (they win over a custom command of the same name). */
export function isBuiltinCommand(text: string): boolean {
  const parsed = parseSlashCommand(text);
  return SLASH_COMMANDS.some((command) => command.name === parsed?.name);
}

/** Runs one line that starts with "/": unknown names and failures are reported, never thrown. */
export async function runSlashCommand(text: string, context: CommandContext): Promise<void> {
  const parsed = parseSlashCommand(text);
  const command = SLASH_COMMANDS.find((candidate) => candidate.name === parsed?.name);
  if (!parsed || !command) {
    context.print([context.theme.yellow(`Unknown command ${text.trim().split(/\s/)[0]}. Type /help for the list.`)]);
    return;
  }
  try {
    await command.run(parsed.argument, context);
  } catch (error) {
    context.print([context.theme.red(`/${command.name} failed: ${(error as Error).message}`)]);
  }
}

export function parseSlashCommand(text: string): { name: string; argument: string } | undefined {
  const match = /^\/(\S*)\s*([\s\S]*)$/.exec(text.trim());
  return match ? { name: match[1]!.toLowerCase(), argument: match[2]!.trim() } : undefined;
}

/** Tab completion of a command name (built-in or custom), or of /model's argument. */
export function completeSlash(text: string, models: string[] = [], custom: string[] = []): { text: string; candidates: string[] } {
  const model = /^\/model\s+(\S*)$/.exec(text);
  if (model) {
    const matches = models.filter((name) => name.startsWith(model[1]!));
    return { text: matches.length === 1 ? `/model ${matches[0]}` : `/model ${commonPrefix(matches) || model[1]}`, candidates: matches.length > 1 ? matches : [] };
  }
  if (!/^\/\S*$/.test(text)) return { text, candidates: [] };
  const prefix = text.slice(1).toLowerCase();
  const matches = [...new Set([...SLASH_COMMANDS.map((command) => command.name), ...custom])].filter((name) => name.startsWith(prefix));
  if (matches.length === 1) return { text: `/${matches[0]} `, candidates: [] };
  return { text: `/${commonPrefix(matches) || prefix}`, candidates: matches.map((name) => `/${name}`) };
}

function commonPrefix(words: string[]): string {
  if (!words.length) return '';
  let prefix = words[0]!;
  for (const word of words) while (!word.startsWith(prefix)) prefix = prefix.slice(0, -1);
  return prefix;
}
