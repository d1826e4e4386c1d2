import { mkdtempSync, readFileSync, rmSync, existsSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { initAuthorize } from '../src/cli/tui/init-command.js';
import { createPermissionPolicy, type PermissionMode } from '../src/permissions/permission-policy.js';
import type { ApprovalAnswer, ApprovalRequest } from '../src/tools/approval.js';
import { createFileTools } from '../src/tools/coding/file-tools.js';
import { ToolRegistry } from '../src/tools/registry.js';

const workspace = mkdtempSync(join(tmpdir(), 'vibe-init-'));
afterAll(() => rmSync(workspace, { recursive: true, force: true }));

/** /init's authorization over a policy in `mode`, answering `answer`; the questions it asked. */
function setUp(mode: PermissionMode, answer: ApprovalAnswer, deny: string[] = []) {
  const questions: ApprovalRequest[] = [];
  const asked = new Set<string>();
  const ask = async (request: ApprovalRequest) => {
    questions.push(request);
    asked.add(request.call.id);
    return answer;
  };
  const authorize = initAuthorize(createPermissionPolicy({ mode, ask, deny, protectedDirs: [] }), ask, (id) => asked.has(id));
  return { questions, authorize };
}

let n = 0;
const write = (path: string, content: string) => ({ id: `w${++n}`, name: 'write_file', arguments: JSON.stringify({ path, content }) });
const tools = new ToolRegistry(createFileTools());

describe('initAuthorize', () => {
  it.each(['ask', 'auto-edit', 'yolo'] as const)('in %s mode the AGENTS.md write is asked once, with its diff', async (mode) => {
    const { questions, authorize } = setUp(mode, 'yes');
    const result = await tools.invoke(write('AGENTS.md', `# ${mode}\n`), { workspace, authorize });
    expect(result.status).toBe('ok');
    expect(questions).toHaveLength(1);
    expect(questions[0]!.detail).toContain(`+# ${mode}`);
    expect(readFileSync(join(workspace, 'AGENTS.md'), 'utf8')).toBe(`# ${mode}\n`);
  });

  it('a no leaves the file unwritten; other files follow the mode alone', async () => {
    const { questions, authorize } = setUp('yolo', 'no');
    const declined = await tools.invoke(write('AGENTS.md', 'nope\n'), { workspace, authorize });
    expect(declined.status).toBe('denied');
    expect(readFileSync(join(workspace, 'AGENTS.md'), 'utf8')).not.toBe('nope\n');
    expect((await tools.invoke(write('other.md', 'x\n'), { workspace, authorize })).status).toBe('ok');
    expect(questions).toHaveLength(1);
  });

  it('a deny rule refuses the write without asking', async () => {
    rmSync(join(workspace, 'AGENTS.md'), { force: true });
    const { questions, authorize } = setUp('yolo', 'yes', ['write_file(AGENTS.md)']);
    expect((await tools.invoke(write('AGENTS.md', 'x\n'), { workspace, authorize })).status).toBe('denied');
    expect(questions).toHaveLength(0);
    expect(existsSync(join(workspace, 'AGENTS.md'))).toBe(false);
  });

  it.each(['auto-edit', 'yolo'] as const)('in %s mode a write through a repository link `self -> .` is asked as the AGENTS.md write it is', async (mode) => {
    rmSync(join(workspace, 'AGENTS.md'), { force: true });
    rmSync(join(workspace, 'self'), { force: true });
    symlinkSync('.', join(workspace, 'self'));
    const { questions, authorize } = setUp(mode, 'no');
    const result = await tools.invoke(write('self/AGENTS.md', 'through the link\n'), { workspace, authorize });
    expect(result.status).toBe('denied');
    expect(questions).toHaveLength(1);
    expect(existsSync(join(workspace, 'AGENTS.md'))).toBe(false);
    rmSync(join(workspace, 'self'));
  });
});
