export * from './openai-provider.js';
