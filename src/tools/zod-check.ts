import type { z } from 'zod';
import type { ArgumentCheck } from '../contracts/tool.js';

/** A tool's arguments checked by its zod schema, with zod's issues as the model reads them (`path: message; …`). */
export function checkWithZod(schema: z.ZodType, args: unknown): ArgumentCheck {
  // jitless: zod would otherwise compile a parser per object schema (`new Function`) at its first
  // call, ~5–40 ms on the first tool round, to save microseconds on arguments this small.
  const parsed = schema.safeParse(args, { jitless: true });
  if (parsed.success) return { ok: true, data: parsed.data };
  return { ok: false, issues: parsed.error.issues.map((issue) => `${issue.path.length ? issue.path.join('.') : '(root)'}: ${issue.message}`).join('; ') };
}
