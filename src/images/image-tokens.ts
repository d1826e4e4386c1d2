import type { ImageRef } from '../contracts/messages.js';

/**
 * Tokens an image costs, estimated the most expensive way among the providers (the counter does
 * not know which one a request goes to): Anthropic about w·h/750 after scaling to 1568 px;
 * OpenAI 85 + 170 per 512 px tile after fitting 2048 and then 768 on the short side; Gemini 258
 * per 768 px tile. An image of unknown size counts as the Anthropic maximum (about 1,600).
 */
export function imageTokens(image: Pick<ImageRef, 'width' | 'height'>): number {
  const { width, height } = image;
  if (!width || !height) return 1600;
  return Math.max(anthropicTokens(width, height), openaiTokens(width, height), geminiTokens(width, height));
}

function anthropicTokens(width: number, height: number): number {
  const scale = Math.min(1, 1568 / Math.max(width, height), Math.sqrt(1_150_000 / (width * height)));
  return Math.ceil((width * scale * height * scale) / 750);
}

function openaiTokens(width: number, height: number): number {
  let scale = Math.min(1, 2048 / Math.max(width, height));
  scale *= Math.min(1, 768 / (Math.min(width, height) * scale));
  const tiles = Math.ceil((width * scale) / 512) * Math.ceil((height * scale) / 512);
  return 85 + 170 * tiles;
}

function geminiTokens(width: number, height: number): number {
  if (width <= 384 && height <= 384) return 258;
  return 258 * Math.ceil(width / 768) * Math.ceil(height / 768);
}

export function imagesTokens(images: readonly Pick<ImageRef, 'width' | 'height'>[] | undefined): number {
  let total = 0;
  for (const image of images ?? []) total += imageTokens(image);
  return total;
}
