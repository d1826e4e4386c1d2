import type { IncomingMessage } from 'node:http';
import type { z } from 'zod';

export class BadRequest extends Error {
  override name = 'BadRequest';
  constructor(
    message: string,
    readonly status: 400 | 413 | 415 = 400,
  ) {
    super(message);
  }
}

/** The request's JSON body, read up to `limit` bytes (past it: 413, the rest unread) and checked against `schema`. */
export async function readJsonBody<T extends z.ZodType>(request: IncomingMessage, schema: T, limit: number): Promise<z.infer<T>> {
  const type = request.headers['content-type'] ?? '';
  if (!/^application\/json\b/i.test(type)) throw new BadRequest('the body must be JSON (Content-Type: application/json)', 415);
  const declared = Number(request.headers['content-length'] ?? 0);
  if (declared > limit) throw new BadRequest(`the body is larger than ${limit} bytes`, 413);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > limit) throw new BadRequest(`the body is larger than ${limit} bytes`, 413);
    chunks.push(chunk);
  }
  let value: unknown;
  try {
    value = JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch (error) {
    throw new BadRequest(`the body is not JSON: ${(error as Error).message}`);
  }
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw new BadRequest(parsed.error.issues.map((issue) => `${issue.path.join('.') || 'body'}: ${issue.message}`).join('; '));
  return parsed.data;
}
