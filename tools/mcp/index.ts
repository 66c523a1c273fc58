export { createMcpToolSource, type McpToolSource } from './create-mcp-tool-source.js';
