import type { ToolPermission } from '../../../contracts/tool.js';

/** Search tools read: rules match the path searched when one is given, else the pattern as text. */
export const searchPermission: ToolPermission<{ pattern?: string | undefined; path?: string | undefined }> = {
  category: 'read',
  subject: ({ pattern, path }) =>
    path !== undefined ? { kind: 'file-path', value: path }
    : pattern !== undefined ? { kind: 'text', value: pattern }
    : undefined,
};
