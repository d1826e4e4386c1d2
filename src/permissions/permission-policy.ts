import type { AskApproval } from '../tools/approval.js';
import type { Authorize, Tool } from '../contracts/tool.js';
import { matchesRule, parseRule, type PermissionRule } from './permission-rule.js';
import { agentHomeDirs, touchesProtectedPath } from './protected-paths.js';
import { alwaysScope } from './always-scope.js';

export { PERMISSION_MODES, type PermissionMode } from './permission-modes.js';
import type { PermissionMode } from './permission-modes.js';

export interface PermissionOptions {
  mode: PermissionMode;
  /** Rules such as "shell(git status*)" or "edit(src/**)". Deny beats allow; both beat the mode. */
  allow?: string[];
  deny?: string[];
  /** How to ask the user; absent when there is no terminal (then a call that needs asking is denied). */
  ask?: AskApproval;
  /**
   * The agent's own folders, whose files are asked about in every mode but yolo (like `.git/` and
   * `.vibe-agent/`). Default: the user's config and data folders from the environment.
   */
  protectedDirs?: readonly string[];
}

/**
 * The permission check the registry calls before any call that writes or executes. Order:
 * deny rules, allow rules, grants the user gave with "always" this session, then the mode.
 */
export function createPermissionPolicy(options: PermissionOptions): Authorize {
  const deny = (options.deny ?? []).map(parseRule);
  const allow = (options.allow ?? []).map(parseRule);
  const grants: PermissionRule[] = [];
  const protectedDirs = options.protectedDirs ?? agentHomeDirs();

  const authorize: Authorize = async ({ tool, args, call, preview, workspace, signal }) => {
    const denied = deny.find((rule) => matchesRule(rule, tool, args, workspace, 'deny'));
    if (denied) return { allowed: false, reason: `the rule "${denied.text}" in permissions.deny forbids this call.` };
    if (options.mode === 'plan' && !runsInPlanMode(tool)) {
      return { allowed: false, reason: `plan mode: only read-only tools run, and ${tool.name} is not one. Do not retry it; put it in your plan.` };
    }
    // Reads come here only for the deny rules above; they never ask.
    if (!tool.needsApproval) return { allowed: true };
    if (allow.some((rule) => matchesRule(rule, tool, args, workspace, 'allow'))) return { allowed: true };
    if (options.mode === 'yolo') return { allowed: true };
    // Git runs what .git/config and .git/hooks say (core.fsmonitor on `git status`, diff.external,
    // hooks), and the agent obeys its own config and memory, so an edit there is shell access:
    // neither auto-edit nor an "always" for edits covers it.
    const guarded = touchesProtectedPath(tool, args, workspace, protectedDirs);
    if (!guarded && grants.some((rule) => matchesRule(rule, tool, args, workspace, 'allow'))) return { allowed: true };
    if (!guarded && options.mode === 'auto-edit' && tool.permission.category === 'edit') return { allowed: true };

    if (!options.ask) {
      return {
        allowed: false,
        reason:
          `${tool.name} needs the user's approval and there is no terminal to ask. Do not retry it; ` +
          'tell the user what you wanted to run. (The user can allow it with --yes, --permission-mode auto-edit for file edits, ' +
          'or a permissions.allow rule in their user config, ~/.config/vibe-agent/config.json; a project\'s .vibe-agent/config.json cannot allow calls.)',
      };
    }
    const scope = alwaysScope(tool, args);
    const answer = await options.ask({ call, tool: tool.name, summary: preview.summary, ...(preview.detail !== undefined ? { detail: preview.detail } : {}), always: scope }, signal);
    if (signal.aborted) return { allowed: false, reason: 'the run was cancelled before the user answered.' };
    if (answer === 'always') {
      grants.push(parseRule(scope));
      return { allowed: true };
    }
    if (answer === 'yes') return { allowed: true };
    return { allowed: false, reason: 'the user declined this call.' };
  };
  authorize.checksEveryCall = true;
  return authorize;
}

/** Read-only tools, and concurrent ones that touch nothing themselves (a subagent: each of its calls comes here too). */
function runsInPlanMode(tool: Tool): boolean {
  return tool.readOnly || (tool.concurrent === true && tool.permission.category === 'read');
}

