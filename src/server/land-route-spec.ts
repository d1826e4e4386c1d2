import { errorSchema } from './api-schemas.js';
import { landBodySchema, landResultSchema } from './land-schemas.js';
import type { RouteSpec } from './route-specs.js';

export const LAND_ROUTE: RouteSpec = {
  operationId: 'land',
  method: 'POST',
  path: '/v1/sessions/{id}/land',
  summary:
    "Land a background session's worktree into its checkout, as `vibe-agent land ID --yes` does: its uncommitted work committed on its branch, the branch rebased onto the checkout's HEAD, the checks run (given, else configured; the project's own only once approved for the workspace in a terminal), then the whole change (or the files named) merged into the checkout's working tree, the uncommitted edits there kept, as one rewind point. A refusal applies nothing.",
  body: landBodySchema,
  replies: {
    200: { description: 'Landed (or nothing to land).', schema: landResultSchema },
    400: { description: 'The request is malformed; nothing was done.', schema: errorSchema },
    401: { description: 'No valid bearer token.', schema: errorSchema },
    404: { description: 'No such session, or it is no background session.', schema: errorSchema },
    409: { description: 'Refused (the session is working, the project\'s checks are not approved, a conflict) or a check failed: nothing was applied.', schema: landResultSchema },
  },
};
