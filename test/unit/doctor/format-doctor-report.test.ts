import { describe, expect, it } from 'vitest';
import { doctorLine } from '../../../src/doctor/doctor-line.js';
import { doctorExitCode, formatDoctorReport } from '../../../src/doctor/format-doctor-report.js';

describe('formatDoctorReport', () => {
  it('prints one line per check with its symbol and aligned subjects, then what to do', () => {
    const report = formatDoctorReport([
      doctorLine('ok', 'config', 'valid'),
      doctorLine('fail', 'model', 'openai:gpt-4o-mini: OPENAI_API_KEY is not set'),
      doctorLine('off', 'telegram', 'off: TELEGRAM_BOT_TOKEN is not set'),
      doctorLine('warn', 'tools', 'Unknown tool "nope"'),
    ]);
    expect(report.split('\n').slice(0, 4)).toEqual([
      '✓ config    valid',
      '✗ model     openai:gpt-4o-mini: OPENAI_API_KEY is not set',
      '– telegram  off: TELEGRAM_BOT_TOKEN is not set',
      '! tools     Unknown tool "nope"',
    ]);
    expect(report).toContain('1 problem marked ✗ (1 warning marked !): fix it');
    expect(report.endsWith('\n')).toBe(true);
  });

  it('says everything is in place when nothing failed', () => {
    expect(formatDoctorReport([doctorLine('ok', 'config', 'valid'), doctorLine('off', 'wechat', 'off')])).toContain('Everything needed is in place.');
  });
});

describe('doctorExitCode', () => {
  it('is 1 when any line failed, 0 when only warnings or switched-off parts remain', () => {
    expect(doctorExitCode([doctorLine('ok', 'a', ''), doctorLine('fail', 'b', '')])).toBe(1);
    expect(doctorExitCode([doctorLine('ok', 'a', ''), doctorLine('warn', 'b', ''), doctorLine('off', 'c', '')])).toBe(0);
  });
});
