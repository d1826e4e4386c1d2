import { searchBrave } from './backends/brave.js';
import { searchExa } from './backends/exa.js';
import type { SearchPage, SearchRequest } from './backends/search-request.js';
import { searchSearxng } from './backends/searxng.js';
import { searchTavily } from './backends/tavily.js';
import type { SearchServiceConfig } from './search-service.js';

/** Asks the configured service for one page; throws an Error whose message says what went wrong. */
export function queryService(config: SearchServiceConfig, request: SearchRequest): Promise<SearchPage> {
  switch (config.service) {
    case 'searxng':
      return searchSearxng(config.url, request);
    case 'brave':
      return searchBrave(config.url, request);
    case 'tavily':
      return searchTavily(config.url, request);
    case 'exa':
      return searchExa(config.url, request);
  }
}
