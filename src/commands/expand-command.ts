import type { CustomCommand } from './discover-commands.js';
import { shellQuote } from './shell-quote.js';
import { findShellSites } from './shell-sites.js';

/** Runs one shell command for the prompt; a refusal (denied, failed) stops the command. */
export type RunShell = (command: string) => Promise<{ ok: true; output: string } | { ok: false; reason: string }>;

export type Expanded = { ok: true; prompt: string } | { ok: false; reason: string };

/**
 * The prompt a command sends: each `!`cmd`` / `!{cmd}` of the template replaced by its output,
 * through `runShell` (the bash tool's permission check), one after another; and the arguments put
 * in ($ARGUMENTS, $1…$9 for Markdown; {{args}} for TOML; appended when the template has no
 * placeholder). Sites are found in the template, so an argument is never run as a command itself.
 * Inside a TOML `!{…}`, {{args}} is one shell-quoted word, as Gemini CLI does; elsewhere it is raw.
 */
export async function expandCommand(command: CustomCommand, args: string, runShell: RunShell): Promise<Expanded> {
  const found = findShellSites(command.template);
  if (!found.ok) return { ok: false, reason: `/${command.name}: ${found.reason} in ${command.origin}` };
  let prompt = '';
  let last = 0;
  for (const site of found.sites) {
    prompt += substituteArguments(command, command.template.slice(last, site.start), args, 'text');
    last = site.end;
    const shellCommand = substituteArguments(command, site.command, args, 'shell');
    if (shellCommand === '') continue;
    const ran = await runShell(shellCommand);
    if (!ran.ok) return { ok: false, reason: `/${command.name}: the shell command \`${shellCommand}\` in ${command.origin} was not run: ${ran.reason}` };
    prompt += ran.output.trimEnd();
  }
  prompt += substituteArguments(command, command.template.slice(last), args, 'text');
  if (args && !hasPlaceholder(command)) prompt = `${prompt.trimEnd()}\n\n${command.format === 'toml' ? '' : 'ARGUMENTS: '}${args}`;
  return { ok: true, prompt: prompt.trim() };
}

function hasPlaceholder(command: CustomCommand): boolean {
  return command.format === 'toml' ? command.template.includes('{{args}}') : /\$ARGUMENTS|\$[1-9]/.test(command.template);
}

function substituteArguments(command: CustomCommand, text: string, args: string, where: 'text' | 'shell'): string {
  if (command.format === 'toml') {
    const value = where === 'shell' ? shellQuote(args) : args;
    return text.replaceAll('{{args}}', () => value);
  }
  const words = splitArguments(args);
  return text.replace(/\$ARGUMENTS|\$([1-9])/g, (whole, index: string | undefined) => (index ? (words[Number(index) - 1] ?? '') : args));
}

/** Words as a shell would split them for $1…: quotes group, and are removed. */
export function splitArguments(args: string): string[] {
  return [...args.matchAll(/"([^"]*)"|'([^']*)'|(\S+)/g)].map((m) => m[1] ?? m[2] ?? m[3]!);
}

/** `/name rest` → the command and its arguments, when `name` is one of `commands`. */
export function findInvocation(text: string, commands: readonly CustomCommand[]): { command: CustomCommand; args: string } | undefined {
  const match = /^\/(\S+)\s*([\s\S]*)$/.exec(text.trim());
  if (!match) return undefined;
  const command = commands.find((candidate) => candidate.name === match[1]!.toLowerCase());
  return command ? { command, args: match[2]!.trim() } : undefined;
}
