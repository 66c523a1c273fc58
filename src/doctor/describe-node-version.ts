import { type DoctorLine, doctorLine } from './doctor-line.js';

/** Node 20.12 or newer, as package.json's engines field says. Pure. */
export function describeNodeVersion(version: string): DoctorLine {
  const [major = 0, minor = 0] = version.replace(/^v/, '').split('.').map(Number);
  const isRecentEnough = major > 20 || (major === 20 && minor >= 12);
  return isRecentEnough ? doctorLine('ok', 'node', version) : doctorLine('fail', 'node', `${version} is too old: echo-agent needs Node 20.12 or newer`);
}
