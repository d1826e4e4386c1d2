/**
 * OpenAI's own reasoning models: the o-series and gpt-5 family. They keep their reasoning between
 * tool calls only on the Responses wire, refuse `temperature`, and return encrypted reasoning.
 */
export function isOpenAIReasoningModel(model: string): boolean {
  const name = model.toLowerCase().replace(/^.*\//, '');
  return /^o\d(?:$|[-.])/.test(name) || /^gpt-5(?:$|[-.])/.test(name);
}
