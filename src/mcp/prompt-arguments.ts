import type { ListedPrompt } from './mcp-connection.js';

export type MappedArguments = { ok: true; args: Record<string, string> } | { ok: false; reason: string };

/**
 * What follows `/mcp__server__prompt` as the prompt's arguments: `name=value` words go to that
 * argument, the other words fill the remaining arguments in the server's order (quotes group
 * words), and the last argument takes whatever is left over. A missing required one is an error
 * that shows the usage.
 */
export function mapPromptArguments(prompt: ListedPrompt, text: string): MappedArguments {
  const declared = prompt.arguments ?? [];
  const args: Record<string, string> = {};
  const positional: string[] = [];
  for (const word of splitWords(text)) {
    const named = /^([^=\s]+)=([\s\S]*)$/.exec(word);
    if (named && declared.some((argument) => argument.name === named[1])) args[named[1]!] = named[2]!;
    else positional.push(word);
  }
  const open = declared.filter((argument) => !(argument.name in args));
  open.forEach((argument, index) => {
    const words = index === open.length - 1 ? positional.slice(index) : positional.slice(index, index + 1);
    if (words.length) args[argument.name] = words.join(' ');
  });
  if (!declared.length && positional.length) return { ok: false, reason: `the prompt "${prompt.name}" takes no arguments` };
  const missing = declared.filter((argument) => argument.required && !(argument.name in args)).map((argument) => argument.name);
  if (missing.length) return { ok: false, reason: `missing ${missing.join(', ')}; usage: ${promptUsage(prompt)}` };
  return { ok: true, args };
}

/** `<file> [focus]`: required arguments in angle brackets, optional ones in square ones. */
export function promptArgumentHint(prompt: ListedPrompt): string {
  return (prompt.arguments ?? []).map((argument) => (argument.required ? `<${argument.name}>` : `[${argument.name}]`)).join(' ');
}

function promptUsage(prompt: ListedPrompt): string {
  return `${prompt.name} ${promptArgumentHint(prompt)}`.trim();
}

function splitWords(text: string): string[] {
  return [...text.matchAll(/(\S*?)"([^"]*)"|(\S*?)'([^']*)'|(\S+)/g)].map((m) => (m[2] !== undefined ? m[1]! + m[2] : m[4] !== undefined ? m[3]! + m[4] : m[5]!));
}
