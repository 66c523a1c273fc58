export * from './approvals-service.js';
export * from './caller-question.js';
export * from './caller-questions.js';
export * from './create-approval-gate.js';
export * from './grants.js';
export * from './parked-resumptions.js';
export * from './pending-approval.js';
export * from './suspended-turn.js';
