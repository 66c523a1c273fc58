export * from './create-gateway.js';
export * from './create-gateway-app.js';
export * from './discard-refused-body.js';
export * from './error-response.js';
export * from './gateway-metrics.js';
export * from './health-report.js';
export * from './http-route.js';
export * from './read-json-body.js';
