// Moved next to the adapters (prompt-JSON estimates its re-asked requests); kept here for existing imports.
export { estimateUsage } from '../providers/shared/estimate-usage.js';
