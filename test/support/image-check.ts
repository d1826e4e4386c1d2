/**
 * What the providers check in an inline image: a media type they take, base64 that decodes, and
 * bytes that are that type (Anthropic answers 400 "Image does not match the provided media type").
 */
const TYPES: Record<string, (bytes: Buffer) => boolean> = {
  'image/png': (b) => b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])),
  'image/jpeg': (b) => b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff,
  'image/gif': (b) => b.subarray(0, 4).toString('latin1') === 'GIF8',
  'image/webp': (b) => b.subarray(0, 4).toString('latin1') === 'RIFF' && b.subarray(8, 12).toString('latin1') === 'WEBP',
};
const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

export function checkInlineImage(where: string, mediaType: unknown, data: unknown, maxBase64Bytes?: number): string[] {
  if (typeof mediaType !== 'string' || !TYPES[mediaType]) return [`${where}: unsupported image media type ${JSON.stringify(mediaType)}`];
  if (typeof data !== 'string' || data.length === 0 || data.length % 4 !== 0 || !BASE64.test(data)) return [`${where}: image data is not valid base64`];
  if (maxBase64Bytes !== undefined && data.length > maxBase64Bytes) return [`${where}: image exceeds ${maxBase64Bytes} bytes (${data.length})`];
  if (!TYPES[mediaType]!(Buffer.from(data, 'base64'))) return [`${where}: image does not match the provided media type ${mediaType}`];
  return [];
}

/** OpenAI's `image_url.url` must be a data URL (the only form a test may use: nothing leaves the machine). */
export function checkDataUrl(where: string, url: unknown): string[] {
  const match = typeof url === 'string' ? /^data:([^;,]+);base64,(.*)$/s.exec(url) : null;
  if (!match) return [`${where}: image_url.url is not a base64 data URL`];
  return checkInlineImage(where, match[1], match[2], 20 * 1024 * 1024);
}

/** Decoded images a request carried, for tests to compare. */
export function decodedSize(data: string): number {
  return Buffer.from(data, 'base64').length;
}
