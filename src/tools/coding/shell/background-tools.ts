import type { Zod } from '../../zod-loader.js';
import type { Tool } from '../../../contracts/tool.js';
import { defineTool } from '../../define-tool.js';
import { backgroundJobs, type BackgroundJobs } from './background-jobs.js';

const jobId = (z: Zod) => z.object({ id: z.string().min(1) });

function unknownJob(id: string, jobs: BackgroundJobs): { output: string; isError: true } {
  const known = jobs.list().map((job) => job.id);
  return { output: `No background job "${id}". ${known.length ? `Known: ${known.join(', ')}.` : 'None was started.'}`, isError: true };
}

/** bash_output and bash_kill, on the same table as the bash tool that starts the jobs. */
export function createBackgroundTools(jobs: BackgroundJobs = backgroundJobs): Tool[] {
  const output = defineTool({
    name: 'bash_output',
    description:
      'Read a background shell job (bash with run_in_background): the output it wrote since the last read (capped; call again for more), and whether it is still running or its exit code.',
    parameters: jobId,
    readOnly: true,
    execute: async ({ id }) => {
      const read = jobs.read(id);
      if (!read) return unknownJob(id, jobs);
      const notes: string[] = [];
      if (read.droppedChars > 0) notes.push(`[${read.droppedChars} older unread characters were dropped]`);
      const more = jobs.unreadChars(id);
      if (more > 0) notes.push(`[${more} more characters unread: call bash_output again]`);
      const exited = read.exitCode === undefined ? '' : read.exitCode === null ? `killed by signal ${read.signal ?? 'unknown'}` : `exit code: ${read.exitCode}`;
      notes.push(read.running ? `status: running${exited ? ` (the shell ended with ${exited}; processes it started are alive)` : ''}` : `status: exited, ${exited || 'ended'}`);
      return `${read.output === '' ? '[no new output]' : read.output}${read.output.endsWith('\n') ? '' : '\n'}${notes.join('\n')}`;
    },
  });
  const kill = defineTool({
    name: 'bash_kill',
    description: 'Stop a background shell job and every process it started (SIGTERM, then SIGKILL).',
    parameters: jobId,
    // Stopping what the agent itself started needs no approval.
    needsApproval: false,
    permission: { category: 'read' },
    execute: async ({ id }) => ((await jobs.kill(id)) ? `${id} stopped.` : unknownJob(id, jobs)),
  });
  return [output, kill];
}
