/** One `!`cmd`` or `!{cmd}` in a command's template: where it is and the command inside, trimmed. */
export interface ShellSite {
  start: number;
  end: number;
  command: string;
}

/**
 * The shell interpolations of a template, in order. `!{…}` counts braces as Gemini CLI does, so
 * `!{echo {{args}}}` is one site; an unclosed `!{` is an error rather than text.
 */
export function findShellSites(template: string): { ok: true; sites: ShellSite[] } | { ok: false; reason: string } {
  const sites: ShellSite[] = [];
  let at = 0;
  while (at < template.length) {
    const brace = template.indexOf('!{', at);
    const tick = template.indexOf('!`', at);
    if (brace < 0 && tick < 0) break;
    if (tick >= 0 && (brace < 0 || tick < brace)) {
      const close = template.indexOf('`', tick + 2);
      const newline = template.indexOf('\n', tick + 2);
      if (close > tick + 2 && (newline < 0 || close < newline)) sites.push({ start: tick, end: close + 1, command: template.slice(tick + 2, close).trim() });
      at = close > tick + 2 && (newline < 0 || close < newline) ? close + 1 : tick + 2;
      continue;
    }
    const end = closingBrace(template, brace + 2);
    if (end < 0) return { ok: false, reason: `the shell command starting at \`${template.slice(brace, brace + 40)}\` has no closing brace` };
    sites.push({ start: brace, end: end + 1, command: template.slice(brace + 2, end).trim() });
    at = end + 1;
  }
  return { ok: true, sites };
}

function closingBrace(text: string, from: number): number {
  let depth = 1;
  for (let index = from; index < text.length; index++) {
    if (text[index] === '{') depth++;
    else if (text[index] === '}' && --depth === 0) return index;
  }
  return -1;
}
