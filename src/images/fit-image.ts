import type { ImageMediaType } from '../contracts/messages.js';
import { label, type ImageFacts } from './detect-image.js';
import { formatMegabytes, type ImageLimits } from './image-limits.js';

export function base64Length(bytes: number): number {
  return Math.ceil(bytes / 3) * 4;
}

export function withinLimits(byteLength: number, facts: ImageFacts, limits: ImageLimits): boolean {
  return base64Length(byteLength) <= limits.maxBase64Bytes && Math.max(facts.width, facts.height) <= limits.maxEdge;
}

/** Formats jimp can decode and re-encode (WebP needs a codec jimp does not ship). */
const REENCODABLE = new Set<ImageMediaType>(['image/png', 'image/jpeg', 'image/gif']);

/**
 * Scales and re-encodes an image that is over `limits` until it fits: first to the provider's
 * recommended edge (it would scale it so anyway), then smaller while the bytes are still over.
 * A PNG stays a PNG when that fits; otherwise the result is a JPEG (quality 85). jimp is loaded
 * here, on first need, never at start-up.
 */
export async function fitImage(
  bytes: Buffer,
  facts: ImageFacts,
  limits: ImageLimits,
): Promise<{ ok: true; bytes: Buffer; facts: ImageFacts } | { ok: false; reason: string }> {
  const over = overBy(bytes.length, facts, limits);
  if (!REENCODABLE.has(facts.mediaType)) {
    return { ok: false, reason: `is ${over}, over ${limits.provider}'s limit (${limitText(limits)}), and a ${label(facts.mediaType)} cannot be resized here; convert it to PNG or JPEG, or make it smaller` };
  }
  const { Jimp } = await import('jimp');
  let image: Awaited<ReturnType<typeof Jimp.fromBuffer>>;
  try {
    image = await Jimp.fromBuffer(bytes);
  } catch (error) {
    return { ok: false, reason: `could not be decoded (${error instanceof Error ? error.message : String(error)})` };
  }
  const longEdge = Math.max(facts.width, facts.height);
  let scale = Math.min(1, (limits.recommendedEdge ?? limits.maxEdge) / longEdge);
  // Scaled once in place, so the full-size bitmap is not copied for each attempt.
  if (scale < 1) image.resize({ w: Math.max(1, Math.round(facts.width * scale)), h: Math.max(1, Math.round(facts.height * scale)) });
  const first = scale;
  for (let attempt = 0; attempt < 8; attempt++) {
    const width = Math.max(1, Math.round(facts.width * scale));
    const height = Math.max(1, Math.round(facts.height * scale));
    let resized = image;
    if (scale < first) {
      resized = image.clone();
      resized.resize({ w: width, h: height });
    }
    const candidates: Array<{ type: ImageMediaType; encode: () => Promise<Buffer> }> = [
      ...(facts.mediaType === 'image/png' ? [{ type: 'image/png' as const, encode: () => resized.getBuffer('image/png') }] : []),
      { type: 'image/jpeg', encode: () => resized.getBuffer('image/jpeg', { quality: 85 }) },
    ];
    let smallest = Infinity;
    for (const candidate of candidates) {
      const out = await candidate.encode();
      const fitted = { mediaType: candidate.type, width, height };
      if (withinLimits(out.length, fitted, limits)) return { ok: true, bytes: out, facts: fitted };
      smallest = Math.min(smallest, base64Length(out.length));
    }
    scale *= Math.min(0.9, Math.sqrt(limits.maxBase64Bytes / smallest) * 0.95);
  }
  return { ok: false, reason: `is ${over}, over ${limits.provider}'s limit (${limitText(limits)}), and could not be made to fit` };
}

export function limitText(limits: ImageLimits): string {
  return `${formatMegabytes(limits.maxBase64Bytes)} as base64 and ${limits.maxEdge} px on the long edge`;
}

function overBy(byteLength: number, facts: ImageFacts, limits: ImageLimits): string {
  const parts: string[] = [];
  if (base64Length(byteLength) > limits.maxBase64Bytes) parts.push(`${formatMegabytes(base64Length(byteLength))} as base64`);
  if (Math.max(facts.width, facts.height) > limits.maxEdge) parts.push(`${facts.width}×${facts.height} px`);
  return parts.join(' and ') || 'too large';
}
