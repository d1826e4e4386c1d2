// Written by scripts/tool-specs.mjs (`npm run tool-specs`) with Ajv's standalone code from todo_read's schema in tool-specs.ts; test/tool-validators.test.ts fails when it is stale.
// @ts-nocheck

/** True when the arguments are valid, unknown keys removed and defaults filled in place (a CompiledValidator). */
export const validate: (data: unknown) => boolean = validate10;const schema11 = {"type":"object","properties":{}};function validate10(data, {instancePath="", parentData, parentDataProperty, rootData=data}={}){let vErrors = null;let errors = 0;if(errors === 0){if(data && typeof data == "object" && !Array.isArray(data)){for(const key0 in data){delete data[key0];}}else {validate10.errors = [{instancePath,schemaPath:"#/type",keyword:"type",params:{type: "object"}}];return false;}}validate10.errors = vErrors;return errors === 0;}
