/**
 * What each wire protocol accepts per image, as the providers document it (see docs/images.md
 * for the sources). Bytes are counted after base64, the form that travels.
 */
export interface ImageLimits {
  /** Who sets the limit, for messages. */
  provider: string;
  maxBase64Bytes: number;
  /** The longest edge accepted (the provider rejects larger). */
  maxEdge: number;
  /** Larger is scaled down by the provider anyway; we scale it here and send fewer bytes. */
  recommendedEdge?: number;
}

const MB = 1024 * 1024;

export const IMAGE_LIMITS = {
  anthropic: { provider: 'Anthropic', maxBase64Bytes: 5 * MB, maxEdge: 8000, recommendedEdge: 1568 },
  openai: { provider: 'OpenAI', maxBase64Bytes: 20 * MB, maxEdge: 8000, recommendedEdge: 2048 },
  // Inline data: the whole request must stay under 20 MB, so one image is held well under it.
  google: { provider: 'Gemini', maxBase64Bytes: 15 * MB, maxEdge: 8000, recommendedEdge: 3072 },
} satisfies Record<string, ImageLimits>;

export type ImageProtocol = keyof typeof IMAGE_LIMITS;

/** A limit every provider accepts: for images whose destination is not known (tool results). */
export const STRICTEST_IMAGE_LIMITS: ImageLimits = { provider: 'every provider', maxBase64Bytes: 5 * MB, maxEdge: 8000, recommendedEdge: 1568 };

export function imageLimitsFor(protocol: string | undefined): ImageLimits {
  return protocol && protocol in IMAGE_LIMITS ? IMAGE_LIMITS[protocol as ImageProtocol] : STRICTEST_IMAGE_LIMITS;
}

export function formatMegabytes(bytes: number): string {
  return `${(bytes / MB).toFixed(bytes % MB === 0 ? 0 : 1)} MB`;
}

/**
 * The largest image decoded here, whatever the provider: decoding allocates four bytes a pixel
 * before a single row is read, so a 100 KB file that declares 30000×30000 would take 3.6 GB. Checked
 * against the sizes the headers declare, before any decoder sees the bytes.
 */
export const DECODE_LIMITS = { maxEdge: 20_000, maxPixels: 50_000_000 } as const;
