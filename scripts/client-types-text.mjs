import openapiTS, { astToString } from 'openapi-typescript';

/** The text of src/client/api-types.ts for an OpenAPI document (shared by the script and its staleness test). */
export async function clientTypesText(document) {
  const ast = await openapiTS(document, { exportType: false, alphabetize: false });
  return `// Written by scripts/client-types.mjs (\`npm run client-types\`) from GET /openapi.json; test/client-types.test.ts fails when it is stale.\n/* eslint-disable */\n${astToString(ast)}`;
}
