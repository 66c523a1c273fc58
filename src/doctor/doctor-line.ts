/** How one doctor line came out: fine, wrong, worth knowing, or switched off. */
export type DoctorStatus = 'ok' | 'fail' | 'warn' | 'off';

/** One line of the doctor's report: what was checked and, in plain words, how it is. */
export type DoctorLine = {
  readonly status: DoctorStatus;
  /** What the line is about: `config`, `store`, `model`, `telegram`, ... */
  readonly subject: string;
  readonly text: string;
};

/** Builds a doctor line. */
export function doctorLine(status: DoctorStatus, subject: string, text: string): DoctorLine {
  return { status, subject, text };
}

/** `3000` → "3 s". Pure. */
export function formatSeconds(milliseconds: number): string {
  return `${Math.round(milliseconds / 100) / 10} s`;
}
