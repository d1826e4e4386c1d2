/** Moved to contracts (the trust question, below the CLI, needs it): re-exported for the CLI. */
export * from '../../contracts/visible-text.js';
