/** Tools a narrowing never removes: loading another skill can only narrow further. */
const ALWAYS_ALLOWED = new Set(['skill']);

/**
 * What the model may call in the current run, narrowed by the `allowed-tools` of the skills it
 * loaded and of the custom command that started the run. The registry asks `refusal` before
 * every call, so the narrowing holds in the tool layer whatever the model does.
 */
export class ToolScope {
  private allowed: Set<string> | undefined;
  private readonly narrowedBy: string[] = [];

  /** A new run starts unrestricted, or narrowed by the command that started it. */
  beginRun(command?: { allowedTools: readonly string[]; by: string }): void {
    this.allowed = undefined;
    this.narrowedBy.length = 0;
    if (command) this.narrow(command.allowedTools, command.by);
  }

  /** Keeps only `names` (intersected with any earlier narrowing). */
  narrow(names: readonly string[], by: string): void {
    const next = new Set(names);
    this.allowed = this.allowed ? new Set([...this.allowed].filter((name) => next.has(name))) : next;
    this.narrowedBy.push(by);
  }

  /** The tools allowed now, or undefined when nothing narrows them. */
  current(): string[] | undefined {
    return this.allowed ? [...this.allowed] : undefined;
  }

  /** Why `name` may not be called now, or undefined when it may. */
  refusal(name: string): string | undefined {
    if (!this.allowed || this.allowed.has(name) || ALWAYS_ALLOWED.has(name)) return undefined;
    const allowed = [...this.allowed].join(', ') || 'no tools';
    return `${name} is not allowed while ${this.narrowedBy.join(' and ')} is active; its allowed-tools permit only: ${allowed}. Use one of those, or finish and say what else is needed.`;
  }
}
