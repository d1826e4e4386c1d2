import { PRESET_ALIASES, PRESETS } from './presets.js';

/**
 * Models known to take text only. A model not named here is assumed to take images (the
 * provider then says so itself if it does not); the list holds only what the vendors document.
 */
const TEXT_ONLY_MODELS: RegExp[] = [
  /^deepseek-(chat|reasoner|coder)/,
  /^(o1-mini|o3-mini)/,
  /^gpt-3\.5/,
  /^(qwen-(plus|max|turbo|long)|qwen3?-coder)/,
  /^kimi-k2/,
  /^glm-4(\.\d)?(-(air|flash|plus))?$/,
  /^codestral/,
];

/** Why images cannot go to this preset and model, or undefined when they may. */
export function imagesRefusedBy(preset: string | undefined, model: string): string | undefined {
  const name = preset ? (PRESET_ALIASES[preset] ?? preset) : undefined;
  if (name && PRESETS[name]?.images === false) return `the ${name} endpoint does not accept images`;
  const bare = model.replace(/^.*\//, '');
  if (TEXT_ONLY_MODELS.some((pattern) => pattern.test(bare))) return `the model ${model} takes text only (it does not accept images)`;
  return undefined;
}
