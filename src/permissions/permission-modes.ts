// Its own file so that argument parsing (and --help, --version) does not load the policy and its matchers.

/**
 * ask: every call that needs approval is confirmed; auto-edit: calls of category edit run, others
 * ask; yolo: everything runs; plan: only read-only tools run (and subagents, whose calls are checked
 * the same way), everything else is refused without asking; auto: nobody is asked — a fixed first tier
 * (deny rules, a built-in hard-deny list; reads and ordinary edits inside the workspace) and a
 * reviewer model for the rest decide, fail-closed (see auto-review.ts).
 */
export type PermissionMode = 'ask' | 'auto-edit' | 'auto' | 'yolo' | 'plan';
export const PERMISSION_MODES: readonly PermissionMode[] = ['ask', 'auto-edit', 'auto', 'yolo', 'plan'];
