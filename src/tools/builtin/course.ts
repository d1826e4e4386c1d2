import type { Tool } from '../../contracts/tool.js';
import { calculatorTool } from './calculator.js';
import { currentTimeTool } from './current-time.js';
import { fetchUrlTool } from './fetch-url.js';

/** The three tools of the course the project comes from. */
export const courseTools: Tool[] = [currentTimeTool, calculatorTool, fetchUrlTool];
