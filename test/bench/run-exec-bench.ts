// `npm run bench:exec`: the sandbox's cost, median milliseconds per exec of `true`, without and with bubblewrap.
import { runExecBench } from './exec-bench.js';

const figures = await runExecBench({ calls: 200, warmup: 20 });
const format = (value: number) => `${value.toFixed(2)} ms`;
const lines = [
  `exec tool, \`true\`, sandbox off:   ${format(figures.toolUnsandboxedMs)}`,
  `exec tool, \`true\`, bwrap:         ${format(figures.toolBwrapMs)}`,
  `bare spawn /bin/sh -c true:        ${format(figures.spawnShellMs)}`,
  `bare spawn bwrap ... sh -c true:   ${format(figures.spawnBwrapMs)}`,
  `(median of 200 calls after 20 unmeasured; ${figures.bwrapPath})`,
];
process.stdout.write(`${lines.join('\n')}\n`);
