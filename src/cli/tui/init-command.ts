import { resolveInWorkspace } from '../../workspace/resolve-path.js';
import type { Authorize, AuthorizeRequest } from '../../contracts/tool.js';
import type { AskApproval } from '../../tools/approval.js';

export const INIT_FILE = 'AGENTS.md';

/** What /init asks of the model: an AGENTS.md from what the repository shows, or a better one. */
export const INIT_PROMPT = `Write or improve AGENTS.md at the root of this repository: the instructions a coding agent (or a new contributor) needs before changing code here.

First look at the repository: its layout, the build and package files (package.json, Makefile, pyproject.toml, Cargo.toml, go.mod …), the CI configuration, the README and docs, and any existing agent rules (AGENTS.md, CLAUDE.md, GEMINI.md, .cursorrules, .cursor/rules, .github/copilot-instructions.md). Read the files that tell you how the project is built and tested; do not guess commands.

AGENTS.md should hold, in short sections:
- the commands to install, build, lint, type-check and test, including how to run a single test;
- the layout: where the source, tests and docs live, and the big-picture architecture that takes reading several files to see;
- the conventions the code follows (naming, style, error handling, how tests are written) as the code shows them;
- what a contributor must not do or must always do (generated files to regenerate, checks to run before committing).

Be concrete and brief (about 200 to 400 words); leave out generic advice any developer knows and anything you could not confirm in the repository. If AGENTS.md already exists, keep what is still true, correct what is wrong and add what is missing, with edit_file; otherwise create it with write_file. Write only AGENTS.md.`;

/**
 * The authorization of the /init turn: the session's rules, and a write to AGENTS.md they let
 * through unasked (an auto-edit or yolo mode, an allow rule) is asked about all the same, with
 * the diff: the user sees what /init writes before it is written. `asked` says whether the rules
 * asked about a call already, so none is asked twice.
 */
export function initAuthorize(rules: Authorize, ask: AskApproval, asked: (callId: string) => boolean): Authorize {
  return Object.assign(
    async (request: AuthorizeRequest) => {
      const decision = await rules(request);
      if (!decision.allowed || asked(request.call.id) || !(await writesInitFile(request))) return decision;
      const { preview, call, tool, signal } = request;
      const answer = await ask({ call, tool: tool.name, summary: `${preview.summary} (/init shows its write before it is made)`, ...(preview.detail !== undefined ? { detail: preview.detail } : {}) }, signal);
      return answer === 'no' ? { allowed: false as const, reason: `The user declined this change to ${INIT_FILE}.` } : decision;
    },
    { checksEveryCall: rules.checksEveryCall },
  );
}

/** Whether the call writes AGENTS.md where the path really leads (`self/AGENTS.md` through a link `self -> .` does), by the file tools' own path check. */
async function writesInitFile(request: AuthorizeRequest): Promise<boolean> {
  if (request.tool.readOnly) return false;
  const path = (request.args as { path?: unknown } | undefined)?.path;
  if (typeof path !== 'string') return false;
  const where = (written: string) => resolveInWorkspace(written, { workspace: request.workspace, allowSecrets: true, forWrite: true });
  const [target, initFile] = await Promise.all([where(path), where(INIT_FILE)]);
  return target.ok && initFile.ok && target.absolute === initFile.absolute;
}
