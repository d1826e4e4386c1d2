import type { Zod } from '../../zod-loader.js';
import { defineTool } from '../../define-tool.js';
import type { Tool, ToolOutput, ToolPreview } from '../../../contracts/tool.js';
import { diskFileAccess, mtimeAfterWrite } from '../shared/file-access.js';
import { filePermission } from '../shared/file-permission.js';
import type { FileToolOptions } from '../shared/file-tool-options.js';
import { planEdit } from './plan-edit.js';
import { observedWrite } from '../shared/observe-write.js';
import type { FileReadTracker } from '../shared/read-tracker.js';

const parameters = (z: Zod) =>
  z.object({
    path: z.string().min(1),
    old_string: z.string(),
    new_string: z.string(),
    replace_all: z.boolean().optional(),
  });

export function createEditFileTool(options: FileToolOptions, tracker: FileReadTracker): Tool {
  return defineTool({
    name: 'edit_file',
    description:
      'Replace old_string with new_string in a file. old_string must match exactly one place (copy it from read_file output without line numbers; add surrounding lines to make it unique), or set replace_all. Returns a unified diff; on a miss, the closest lines.',
    parameters,
    readOnly: false,
    permission: filePermission('edit', ['edit']),
    async preview(args, context): Promise<ToolPreview> {
      const plan = await planEdit(args, context, options, tracker);
      return plan.ok ? { summary: plan.summary, detail: plan.diff } : { error: plan.error };
    },
    async execute(args, context): Promise<ToolOutput> {
      // Planned again: the file may have changed while the user looked at the preview.
      const plan = await planEdit(args, context, options, tracker);
      if (!plan.ok) return { output: plan.error, isError: true };
      const bytes = Buffer.from(plan.stored, 'utf8');
      return observedWrite(options.observeWrite, plan.absolute, context, async () => {
        await (options.files ?? diskFileAccess).write(plan.absolute, bytes, plan.mode === undefined ? {} : { mode: plan.mode });
        tracker.record(plan.absolute, bytes, await mtimeAfterWrite(plan.absolute));
        return plan.report;
      });
    },
  });
}
