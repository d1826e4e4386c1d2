import { argumentRefusal } from './argument-rule.js';

/** Tools a narrowing never removes: loading another skill can only narrow further. */
const ALWAYS_ALLOWED = new Set(['skill']);

/** One narrowing: each allowed tool, with its argument patterns (null: any arguments). */
type Layer = { by: string; tools: Map<string, string[] | null> };

/**
 * What the model may call in the current run, narrowed by the `allowed-tools` of the skills it
 * loaded and of the custom command that started the run. The registry asks `refusal` before
 * every call, so the narrowing holds in the tool layer whatever the model does. Entries are tool
 * names (`grep`) or a name with an argument pattern (`bash(git diff:*)`, `read_file(src/**)`);
 * every narrowing applies at once, so a later one can only take away.
 */
export class ToolScope {
  private layers: Layer[] = [];

  /** A new run starts unrestricted, or narrowed by the command that started it. */
  beginRun(command?: { allowedTools: readonly string[]; by: string }): void {
    this.layers = [];
    if (command) this.narrow(command.allowedTools, command.by);
  }

  /** Keeps only `entries` (on top of any earlier narrowing). */
  narrow(entries: readonly string[], by: string): void {
    const tools = new Map<string, string[] | null>();
    for (const entry of entries) {
      const match = /^([^(]+)\((.*)\)$/s.exec(entry.trim());
      const name = (match ? match[1]! : entry).trim();
      if (!match) tools.set(name, null);
      else if (tools.get(name) !== null) tools.set(name, [...(tools.get(name) ?? []), match[2]!.trim()]);
    }
    this.layers.push({ by, tools });
  }

  /** The tools allowed now (argument patterns aside), or undefined when nothing narrows them. */
  current(): string[] | undefined {
    if (!this.layers.length) return undefined;
    return [...this.layers[0]!.tools.keys()].filter((name) => this.layers.every((layer) => layer.tools.has(name)));
  }

  /** Why `name` may not be called now (with `args`, when given, checked against argument patterns), or undefined when it may. */
  refusal(name: string, args?: unknown): string | undefined {
    if (!this.layers.length || ALWAYS_ALLOWED.has(name)) return undefined;
    const by = this.layers.map((layer) => layer.by).join(' and ');
    for (const layer of this.layers) {
      if (!layer.tools.has(name)) {
        const allowed = this.current()?.join(', ') || 'no tools';
        return `${name} is not allowed while ${by} is active; its allowed-tools permit only: ${allowed}. Use one of those, or finish and say what else is needed.`;
      }
      const patterns = layer.tools.get(name);
      if (!patterns || args === undefined) continue;
      const reasons = patterns.map((pattern) => argumentRefusal(name, pattern, args));
      if (reasons.every((reason) => reason !== undefined)) {
        return `this ${name} call is outside the allowed-tools of ${layer.by} (${patterns.map((p) => `${name}(${p})`).join(', ')}): ${reasons.join('; ')}.`;
      }
    }
    return undefined;
  }
}
