import { z } from 'zod';
import { defineTool } from '../tools/define-tool.js';

/**
 * A rename as the permission policy sees it: an edit (category edit, alias `edit`) of every file it
 * touches, with the whole diff in the question. So `ask` asks once, auto-edit applies it, a rule
 * such as `edit(src/**)` allows it only when it covers every file, and a deny rule on any one refuses it.
 */
export const renameAction = defineTool({
  name: 'code_nav_rename',
  description: 'Applies a language server rename to the files it touches (not offered to the model).',
  parameters: z.object({ path: z.string(), files: z.array(z.string()) }),
  // Every file the rename writes is a subject: a deny rule or protected folder on any of them refuses it.
  permission: { category: 'edit', aliases: ['edit'], subject: ({ path, files }) => ({ kind: 'file-path', value: path, also: files }) },
  execute: async () => 'not callable',
});
