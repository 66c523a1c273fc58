export * from './create-approval-reviewer.js';
export * from './evaluate-reviewer.js';
export * from './evaluation-cases.js';
export * from './parse-reviewer-answer.js';
export * from './recent-reviews.js';
export * from './reviewer-prompt.js';
export * from './reviewer-verdict.js';
export * from './smart-preferences.js';
