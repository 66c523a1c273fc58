import { describeExecSandbox, type ExecSandbox } from '../../../tools/index.js';
import { type DoctorLine, doctorLine } from '../../doctor/doctor-line.js';
import type { BubblewrapProbe } from '../../doctor/probe-bubblewrap.js';

/**
 * Which sandbox exec runs commands in: bubblewrap found and working (fine), required but missing or
 * unable to build a sandbox (exec fails: wrong when exec is offered), or switched off (worth a look). Pure.
 */
export function describeExecSandboxLine(input: { readonly sandbox: ExecSandbox; readonly execOffered: boolean; readonly probe?: BubblewrapProbe }): DoctorLine {
  const { sandbox, execOffered, probe } = input;
  const text = `exec sandbox: ${describeExecSandbox(sandbox)}`;
  if (sandbox.mode === 'off') return doctorLine(execOffered ? 'warn' : 'off', 'sandbox', text);
  if (sandbox.bwrapPath === undefined) return doctorLine(execOffered ? 'fail' : 'warn', 'sandbox', text);
  if (probe !== undefined && !probe.ok) return doctorLine(execOffered ? 'fail' : 'warn', 'sandbox', `${text}, but it cannot build a sandbox here: ${probe.reason}`);
  return doctorLine('ok', 'sandbox', text);
}
