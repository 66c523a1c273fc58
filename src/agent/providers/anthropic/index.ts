export * from './anthropic-provider.js';
