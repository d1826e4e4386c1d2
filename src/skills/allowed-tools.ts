/** Claude Code's tool names, as skills and commands written for it spell them, to ours. */
const CLAUDE_NAMES: Record<string, string[]> = {
  read: ['read_file'],
  write: ['write_file'],
  edit: ['edit_file'],
  multiedit: ['edit_file'],
  grep: ['grep'],
  glob: ['list_files'],
  ls: ['list_files'],
  bash: ['bash'],
  webfetch: ['fetch_url'],
};

/**
 * `allowed-tools` as a list of our tool names: a YAML list or a comma/space separated string,
 * Claude Code's names mapped to ours and argument patterns kept ("Bash(git status:*)" becomes
 * "bash(git status:*)", enforced by ToolScope; permission rules still apply on top). Undefined
 * when the field is absent: no narrowing.
 */
export function parseAllowedTools(value: unknown): string[] | undefined {
  if (value === undefined || value === null) return undefined;
  const items = Array.isArray(value) ? value.map(String) : splitTopLevel(String(value));
  const names = items.flatMap((item) => {
    const match = /^([^(]*)\((.*)\)$/s.exec(item.trim());
    const name = (match ? match[1]! : item).trim();
    if (!name) return [];
    const ours = CLAUDE_NAMES[name.toLowerCase()] ?? [name];
    return match ? ours.map((tool) => `${tool}(${match[2]!.trim()})`) : ours;
  });
  return [...new Set(names)];
}

/** Splits at commas and spaces that are not inside parentheses ("Bash(git add:*), Read"). */
function splitTopLevel(text: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let current = '';
  for (const char of text) {
    if (char === '(') depth++;
    if (char === ')') depth = Math.max(0, depth - 1);
    if (depth === 0 && (char === ',' || /\s/.test(char))) {
      parts.push(current);
      current = '';
    } else current += char;
  }
  parts.push(current);
  return parts.filter((part) => part.trim() !== '');
}
