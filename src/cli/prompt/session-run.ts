/** What a run with a session adds (the store, request records, checkpoints): one chunk for every command that saves (scripts/bundle-cli.mjs). */
export { newSessionFile, resumeSessionFile } from '../../conversation/session-file.js';
export { recordingRequests } from '../../session/recording-provider.js';
export { withCheckpoints } from '../../checkpoints/with-checkpoints.js';
