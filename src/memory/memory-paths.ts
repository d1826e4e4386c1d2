/** Moved to workspace (the permission policy, below memory, needs it): re-exported for memory's readers. */
export * from '../workspace/agent-dirs.js';
