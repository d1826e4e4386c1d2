/** The probes' requests: tiny on purpose (each a few dozen tokens), so a paid endpoint costs cents. */
export const WEATHER_TOOL = {
  type: 'function',
  function: {
    name: 'get_weather',
    description: 'The current weather in a city.',
    parameters: { type: 'object', properties: { city: { type: 'string', description: 'The city name' } }, required: ['city'] },
  },
} as const;

export const PING_PROMPT = 'Reply with the single word OK.';
export const COUNT_PROMPT = 'Count from 1 to 40, numbers separated by spaces, nothing else.';
export const ONE_CALL_PROMPT = 'What is the weather in Paris? Use the get_weather tool; do not answer in text.';
export const TWO_CALLS_PROMPT = 'What is the weather in Paris and in Tokyo? Call get_weather twice in this one reply (once per city), in parallel.';

export const user = (content: string) => [{ role: 'user', content }];
