import { z } from 'zod';
import { defineTool } from '../tools/define-tool.js';

/**
 * A rename as the permission policy sees it: an edit (category edit, alias `edit`) of the file the
 * model named, with every file it touches and the whole diff in the question. So `ask` asks,
 * auto-edit applies it, and rules such as `edit(src/**)` match the named file.
 */
export const renameAction = defineTool({
  name: 'code_nav_rename',
  description: 'Applies a language server rename to the files it touches (not offered to the model).',
  parameters: z.object({ path: z.string(), files: z.array(z.string()) }),
  permission: { category: 'edit', aliases: ['edit'], subject: ({ path }) => ({ kind: 'file-path', value: path }) },
  execute: async () => 'not callable',
});
