import { workspacePaths } from './permission-rule.js';

/**
 * Files through which an edit changes what runs later, or what the agent itself obeys: its own
 * config and memory, instructions to agents, MCP server lists, git's folder, package scripts, CI
 * workflows, git hooks managers, editor tasks, direnv. An edit to one is never on the auto mode's
 * fast path: the reviewer sees it. Matched on the workspace-relative path, as written and where
 * symlinks really lead, in any letter case.
 */
const PERSISTENCE = [
  /(^|\/)\.vibe-agent(\/|$)/,
  /(^|\/)\.git(\/|$)/,
  /(^|\/)(agents|claude|gemini)\.md$/,
  /(^|\/)\.(mcp|cursor\/mcp)\.json$/,
  /(^|\/)\.(claude|codex|gemini|cursor|vscode|idea|devcontainer|husky)(\/|$)/,
  /(^|\/)package\.json$/,
  /(^|\/)\.(npmrc|yarnrc|yarnrc\.yml|envrc|pre-commit-config\.yaml|gitmodules|gitattributes|gitconfig)$/,
  /(^|\/)\.github\/(workflows|actions)(\/|$)/,
  /(^|\/)\.gitlab-ci\.yml$/,
  /(^|\/)\.circleci(\/|$)/,
  /(^|\/)(jenkinsfile|azure-pipelines\.yml|\.travis\.yml|bitbucket-pipelines\.yml)$/,
];

/** Whether any path the call writes is a self-modification or persistence path (see PERSISTENCE). */
export function touchesPersistencePath(paths: readonly string[], workspace: string): string | undefined {
  for (const path of paths) {
    for (const shown of workspacePaths(path, workspace)) {
      if (PERSISTENCE.some((pattern) => pattern.test(shown.toLowerCase()))) return shown;
    }
  }
  return undefined;
}

/** Whether every form of the path lies inside the workspace. */
export function insideWorkspacePaths(paths: readonly string[], workspace: string): boolean {
  return paths.every((path) => workspacePaths(path, workspace).every((shown) => shown !== '' && !shown.startsWith('/') && !shown.startsWith('../') && shown !== '..'));
}
