// Module customization hooks (node --import test/fakes/record-module-loads.mjs): appends the URL of every
// module the ES loader loads to the file named by ECHO_TEST_MODULE_LOG, one per line.
import { appendFileSync } from 'node:fs';

const log = process.env.ECHO_TEST_MODULE_LOG;

export async function load(url, context, nextLoad) {
  const loaded = await nextLoad(url, context);
  if (log) appendFileSync(log, `${url}\n`);
  return loaded;
}
