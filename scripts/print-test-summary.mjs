// Prints the closing line CI reads (`N passed, N failed, N skipped`) from vitest's JSON report.
// Exits non-zero when the report is missing or no test ran: zero tests is a failure.
import { readFileSync } from 'node:fs';

const reportPath = process.argv[2];
let report;
try {
  report = JSON.parse(readFileSync(reportPath, 'utf8'));
} catch (error) {
  console.log(`no test report at ${reportPath}: ${error.message}`);
  console.log('0 passed, 1 failed');
  process.exit(1);
}
const passed = report.numPassedTests ?? 0;
// A test file that fails to load has no failed tests of its own: count it as one failure.
const failedTests = report.numFailedTests ?? 0;
const failed = failedTests > 0 ? failedTests : (report.numFailedTestSuites ?? 0);
const skipped = (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);
console.log(`${passed} passed, ${failed} failed, ${skipped} skipped`);
if (passed + failed === 0) {
  console.log('no test ran: that is a failure');
  process.exit(1);
}
process.exit(failed > 0 ? 1 : 0);
