/** Moved to contracts (the permission policy, below the tools, needs it): re-exported for the tools and the CLI. */
export * from '../contracts/approval.js';
