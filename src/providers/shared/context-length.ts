/** Phrases providers use when the prompt is larger than the model's window. */
const CONTEXT_LENGTH_PATTERNS: RegExp[] = [
  /context[_ ]length[_ ]exceeded/i, // OpenAI code
  /maximum context length/i, // OpenAI, vLLM, DeepSeek
  /context window/i, // Anthropic, Ollama
  /prompt is too long/i, // Anthropic
  /input is too long/i, // Bedrock-style, Qwen
  /too many tokens/i,
  /exceeds? the (?:maximum|max)(?: number of)? (?:allowed )?(?:input )?tokens/i, // Gemini
  /input token count .* exceeds/i, // Gemini
  /request payload size exceeds the limit/i, // Gemini: the body itself is too big (long histories, files)
  /Range of input length should be/i, // DashScope
  /model_context_window_exceeded/i,
  /reduce the length of the messages/i,
];

export function isContextLengthMessage(text: string): boolean {
  return CONTEXT_LENGTH_PATTERNS.some((pattern) => pattern.test(text));
}
