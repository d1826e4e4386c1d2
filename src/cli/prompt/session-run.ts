/** What a run with a session adds (the store, request records, checkpoints): one lazy import for run-command. */
export { openRunSession } from './run-session.js';
export { recordingRequests } from '../../session/recording-provider.js';
export { withCheckpoints } from '../../checkpoints/with-checkpoints.js';
