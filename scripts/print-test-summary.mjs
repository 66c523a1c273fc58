// Prints the closing line CI reads (`N passed, N failed, N skipped`) summed over one or more of
// vitest's JSON reports (one per run: `node print-test-summary.mjs fast.json slow.json`).
// Exits non-zero when a report is missing, a test failed, or no test ran: zero tests is a failure.
import { readFileSync } from 'node:fs';

const reportPaths = process.argv.slice(2);
let passed = 0;
let failed = 0;
let skipped = 0;
let missing = 0;
for (const reportPath of reportPaths) {
  let report;
  try {
    report = JSON.parse(readFileSync(reportPath, 'utf8'));
  } catch (error) {
    console.log(`no test report at ${reportPath}: ${error.message}`);
    missing += 1;
    continue;
  }
  passed += report.numPassedTests ?? 0;
  // A test file that fails to load has no failed tests of its own: count it as one failure.
  const failedTests = report.numFailedTests ?? 0;
  failed += failedTests > 0 ? failedTests : (report.numFailedTestSuites ?? 0);
  skipped += (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);
}
if (reportPaths.length === 0) {
  console.log('no test report was named');
  missing = 1;
}
// A report that is missing counts as one failure: that run did not finish.
failed += missing;
console.log(`${passed} passed, ${failed} failed, ${skipped} skipped`);
if (passed + failed === 0) {
  console.log('no test ran: that is a failure');
  process.exit(1);
}
process.exit(failed > 0 ? 1 : 0);
