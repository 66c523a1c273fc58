import type { ToolDefinition } from '../src/registry/define-tool.js';
import { askUserTool } from './ask-user-tool.js';
import { cancelTaskTool } from './cancel-task-tool.js';
import { delegateTool } from './delegate-tool.js';
import { editFileTool } from './edit-file-tool.js';
import { execTool } from './exec-tool.js';
import { listDirTool } from './list-dir-tool.js';
import { listTasksTool } from './list-tasks-tool.js';
import { memoryTool } from './memory-tool.js';
import { messageTool } from './message-tool.js';
import { readFileTool } from './read-file-tool.js';
import { scheduleTaskTool } from './schedule-task-tool.js';
import { sendFileTool } from './send-file-tool.js';
import { sessionSearchTool } from './session-search-tool.js';
import { todoTool } from './todo-tool.js';
import { webFetchTool } from './web-fetch-tool.js';
import { writeFileTool } from './write-file-tool.js';

/** The built-in tool catalogue, every tool with its default limits. */
export const builtinTools: readonly ToolDefinition[] = [
  messageTool,
  sendFileTool,
  askUserTool,
  memoryTool,
  todoTool,
  scheduleTaskTool,
  listTasksTool,
  cancelTaskTool,
  sessionSearchTool,
  webFetchTool,
  readFileTool,
  listDirTool,
  writeFileTool,
  editFileTool,
  execTool,
  delegateTool,
];
