import type { DoctorLine, DoctorStatus } from './doctor-line.js';

const symbols: Readonly<Record<DoctorStatus, string>> = { ok: '✓', fail: '✗', warn: '!', off: '–' };

/** The report as the terminal shows it: one line per check, subjects aligned, and a last line saying what to do (or `summary`). Pure. */
export function formatDoctorReport(lines: readonly DoctorLine[], summary: string = summarize(lines)): string {
  const width = Math.max(0, ...lines.map((line) => line.subject.length));
  const body = lines.map((line) => `${symbols[line.status]} ${line.subject.padEnd(width)}  ${line.text}`);
  return `${[...body, '', summary].join('\n')}\n`;
}

/** 1 when any line failed, else 0. Warnings and switched-off parts do not fail the doctor. Pure. */
export function doctorExitCode(lines: readonly DoctorLine[]): number {
  return lines.some((line) => line.status === 'fail') ? 1 : 0;
}

function summarize(lines: readonly DoctorLine[]): string {
  const failed = lines.filter((line) => line.status === 'fail').length;
  const warned = lines.filter((line) => line.status === 'warn').length;
  const warnings = warned === 0 ? '' : ` (${warned} warning${warned === 1 ? '' : 's'} marked !)`;
  if (failed === 0) return `Everything needed is in place${warnings}.`;
  const them = failed === 1 ? 'it' : 'them';
  return `${failed} problem${failed === 1 ? '' : 's'} marked ✗${warnings}: fix ${them} (variables go in the environment or in .env; config/.env.example lists them all), then run npm run doctor again.`;
}
