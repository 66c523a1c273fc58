export { createMcpToolSource, type McpToolSource } from './create-mcp-tool-source.js';
export type { McpSampler, McpSampleRequest } from './sampling-handler.js';
export { type ClientMetadataDocument, clientMetadataDocumentPath } from './create-client-metadata-document.js';
