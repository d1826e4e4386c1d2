import type { CustomCommand } from './discover-commands.js';

/** Runs one shell command for the prompt; a refusal (denied, failed) stops the command. */
export type RunShell = (command: string) => Promise<{ ok: true; output: string } | { ok: false; reason: string }>;

export type Expanded = { ok: true; prompt: string } | { ok: false; reason: string };

const SHELL_FORMS = [/!`([^`\n]+)`/g, /!\{([^}\n]+)\}/g];

/**
 * The prompt a command sends: arguments put in ($ARGUMENTS, $1…$9 for Markdown; {{args}} for
 * TOML; appended when the template has no placeholder), then each `!`cmd`` / `!{cmd}` replaced by
 * its output, through `runShell` (the bash tool's permission check), one after another.
 */
export async function expandCommand(command: CustomCommand, args: string, runShell: RunShell): Promise<Expanded> {
  let prompt = substituteArguments(command, args);
  for (const form of SHELL_FORMS) {
    const pieces: string[] = [];
    let last = 0;
    for (const match of prompt.matchAll(form)) {
      const ran = await runShell(match[1]!.trim());
      if (!ran.ok) return { ok: false, reason: `/${command.name}: the shell command \`${match[1]!.trim()}\` in ${command.origin} was not run: ${ran.reason}` };
      pieces.push(prompt.slice(last, match.index), ran.output.trimEnd());
      last = match.index! + match[0].length;
    }
    prompt = pieces.join('') + prompt.slice(last);
  }
  return { ok: true, prompt: prompt.trim() };
}

function substituteArguments(command: CustomCommand, args: string): string {
  const template = command.template;
  if (command.format === 'toml') {
    if (template.includes('{{args}}')) return template.replaceAll('{{args}}', args);
    return args ? `${template.trimEnd()}\n\n${args}` : template;
  }
  const words = splitArguments(args);
  const placeholders = /\$ARGUMENTS|\$[1-9]/.test(template);
  const filled = template.replace(/\$ARGUMENTS|\$([1-9])/g, (whole, index: string | undefined) => (index ? (words[Number(index) - 1] ?? '') : args));
  return placeholders || !args ? filled : `${filled.trimEnd()}\n\nARGUMENTS: ${args}`;
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
