/** The name of the tool that reads back shortened outputs (its code, in read-output.ts, loads only once one is cut). */
export const READ_OUTPUT_TOOL = 'read_output';
