import type { Tool } from '../../contracts/tool.js';
import { calculatorTool } from './calculator.js';
import { currentTimeTool } from './current-time.js';
import { createFetchUrlTool, fetchUrlTool, type FetchUrlOptions } from './fetch-url.js';

/** The three tools of the course the project comes from. */
export const courseTools: Tool[] = [currentTimeTool, calculatorTool, fetchUrlTool];

/** The course tools, with fetch_url allowed to reach the given private hosts. */
export function createCourseTools(options: FetchUrlOptions): Tool[] {
  return [currentTimeTool, calculatorTool, createFetchUrlTool(options)];
}
