import { cpus, totalmem } from 'node:os';

/** The machine a benchmark ran on, printed above the table and kept in the JSON. */
export type MachineDescription = {
  readonly cores: number;
  readonly cpuModel: string;
  readonly nodeVersion: string;
  readonly memoryGb: number;
  readonly platform: string;
  /** ISO 8601 time the run started. */
  readonly date: string;
};

/** Describes this machine: cores, CPU model, Node version, memory. */
export function describeMachine(): MachineDescription {
  const processors = cpus();
  return {
    cores: processors.length,
    cpuModel: (processors[0]?.model ?? 'unknown').replace(/\s+/g, ' ').trim(),
    nodeVersion: process.version,
    memoryGb: Math.round((totalmem() / 1024 ** 3) * 10) / 10,
    platform: `${process.platform} ${process.arch}`,
    date: new Date().toISOString(),
  };
}
