import { type BenchReport, type Figure, figureSections, goals, openClawScale } from './bench-report.js';

const units: Readonly<Record<string, string>> = {
  turnsPerSecond: 'turns/s',
  messagesPerSecond: 'messages/s',
  bareMessagesPerSecond: 'messages/s',
  concurrent50MessagesPerSecond: 'messages/s',
  microsPerCall: 'µs',
  ratioToBare: '×',
  ratioToModelFloor: '×',
  messagesPerSecond1: 'messages/s',
  messagesPerSecond3: 'messages/s',
  ratio3to1: '×',
  ratio1ToStandalone: '×',
  ratioToBareBot: '×',
};

function unitOf(key: string): string {
  const name = key.split('.').at(-1) ?? key;
  if (units[name]) return units[name];
  if (name.endsWith('Ms')) return 'ms';
  if (name.endsWith('Mb')) return 'MB';
  if (name.endsWith('MessagesPerSecond')) return 'messages/s';
  if (name.endsWith('PerCall')) return 'µs';
  if (name.endsWith('Seconds')) return 's';
  return '';
}

/** A figure as text: null as "n/a", otherwise with sensible precision. */
export function formatFigure(value: Figure): string {
  if (value === null || Number.isNaN(value)) return 'n/a';
  if (Math.abs(value) >= 100) return Math.round(value).toLocaleString('en-US');
  if (Math.abs(value) >= 10) return value.toFixed(1);
  return value.toFixed(2);
}

/** The report as a plain-text table with the goals and OpenClaw's figures beside ours (with `--against`, the ref's figures and the ratio instead of OpenClaw's), then the details and notes. */
export function formatReport(report: BenchReport): string {
  const { machine, against } = report;
  const lines = [
    `echo-agent benchmarks${report.quick ? ' (--quick: fewer runs and smaller loads, see notes)' : ''}`,
    `machine: ${machine.cores} cores, ${machine.cpuModel}, ${machine.memoryGb} GB, ${machine.platform}, Node ${machine.nodeVersion}, load average at start ${machine.loadAverage.map((value) => value.toFixed(2)).join(' ')}, at end ${machine.loadAverageAtEnd.map((value) => value.toFixed(2)).join(' ')}`,
    `date: ${machine.date}, took ${Math.round(report.durationSeconds)} s`,
    ...(against ? [`against: ${against.ref} (${against.commit.slice(0, 12)}), measured alternately in this run; ratio = this tree / ${against.ref}`] : []),
    '',
  ];
  const rows: string[][] = [against ? ['figure', 'this tree', against.ref, 'ratio', 'unit', 'goal'] : ['figure', 'value', 'unit', 'goal', 'OpenClaw 2026.9.6']];
  for (const section of figureSections) {
    for (const [name, value] of Object.entries(report[section] as Record<string, Figure>)) {
      const key = `${section}.${name}`;
      if (against) {
        const theirs = (against.figures[section] as Record<string, Figure>)[name] ?? null;
        const ratio = (against.ratios[section] as Record<string, Figure>)[name] ?? null;
        rows.push([key, formatFigure(value), formatFigure(theirs), formatRatio(ratio), unitOf(key), goals[key] ?? '']);
      } else rows.push([key, formatFigure(value), unitOf(key), goals[key] ?? '', openClawScale[key] ?? '']);
    }
  }
  lines.push(...formatColumns(rows, against ? [1, 2, 3] : [1]));
  lines.push('', 'details:');
  const detailRows = Object.entries(report.details).map(([key, value]) =>
    against ? [`  ${key}`, formatFigure(value), key in against.figures.details ? formatFigure(against.figures.details[key] ?? null) : '', formatRatio(against.ratios.details[key] ?? null), unitOf(key)] : [`  ${key}`, formatFigure(value), unitOf(key)],
  );
  lines.push(...formatColumns(detailRows, against ? [1, 2, 3] : [1]));
  lines.push('', 'notes:', ...report.notes.map((note) => `  - ${note}`));
  return `${lines.join('\n')}\n`;
}

/** A ratio as text: `1.23×`, or blank when there is none. */
function formatRatio(value: Figure): string {
  return value === null || Number.isNaN(value) ? '' : `${value.toFixed(2)}×`;
}

/** Columns padded to their widest cell, numbers (the `rightAligned` columns) aligned right. */
function formatColumns(rows: readonly (readonly string[])[], rightAligned: readonly number[]): string[] {
  const widths: number[] = [];
  for (const row of rows) {
    for (const [index, cell] of row.entries()) widths[index] = Math.max(widths[index] ?? 0, cell.length);
  }
  return rows.map((row) =>
    row
      .map((cell, index) => (rightAligned.includes(index) ? cell.padStart(widths[index] ?? 0) : cell.padEnd(widths[index] ?? 0)))
      .join('  ')
      .trimEnd(),
  );
}
