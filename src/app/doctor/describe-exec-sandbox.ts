import { describeExecSandbox, type ExecSandbox } from '../../../tools/index.js';
import { type DoctorLine, doctorLine } from './doctor-line.js';

/**
 * Which sandbox exec runs commands in: bubblewrap found (fine), required but missing (exec is refused:
 * wrong when exec is offered), or switched off in config (worth a look). Pure.
 */
export function describeExecSandboxLine(sandbox: ExecSandbox, execOffered: boolean): DoctorLine {
  const text = `exec sandbox: ${describeExecSandbox(sandbox)}`;
  if (sandbox.mode === 'off') return doctorLine(execOffered ? 'warn' : 'off', 'sandbox', text);
  if (sandbox.bwrapPath === undefined) return doctorLine(execOffered ? 'fail' : 'warn', 'sandbox', text);
  return doctorLine('ok', 'sandbox', text);
}
