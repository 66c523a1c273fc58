// Classic BPF for seccomp (linux/filter.h, linux/seccomp.h, linux/audit.h).
const loadWord = 0x20; // BPF_LD | BPF_W | BPF_ABS
const jumpIfEqual = 0x15; // BPF_JMP | BPF_JEQ | BPF_K
const jumpIfAtLeast = 0x35; // BPF_JMP | BPF_JGE | BPF_K
const returnValue = 0x06; // BPF_RET | BPF_K
const allow = 0x7fff_0000;
const killProcess = 0x8000_0000;
const errnoEacces = 0x0005_0000 | 13;
// seccomp_data: the syscall number at 0, the architecture at 4, the first argument's low 32 bits at 16 (little-endian).
const numberOffset = 0;
const archOffset = 4;
const firstArgumentOffset = 16;
const afUnix = 1;
const x32Bit = 0x4000_0000;

/** The CPU architectures a filter can be built for, with their audit id and syscall numbers. */
const architectures = {
  x64: { audit: 0xc000_003e, socket: 41, ioUringSetup: 425, hasX32: true },
  arm64: { audit: 0xc000_00b7, socket: 198, ioUringSetup: 425, hasX32: false },
} as const;

type Instruction = { readonly code: number; readonly jt: number | string; readonly jf: number | string; readonly k: number; readonly label?: string };

/**
 * A seccomp program (for bwrap's `--seccomp FD`) refusing `socket(AF_UNIX, …)` with EACCES, so nothing in the sandbox
 * can connect to a host UNIX socket anywhere (Docker, PostgreSQL, Redis, D-Bus, abstract ones); socketpair stays
 * allowed. io_uring is refused too (it could make sockets without the socket syscall), the x32 ABI is refused and
 * a process running another architecture's syscalls (32-bit compat) is killed, so none of them can go around it.
 * Undefined on an architecture without a filter here. Pure.
 */
export function createUnixSocketFilter(arch: string): Buffer | undefined {
  if (arch !== 'x64' && arch !== 'arm64') return undefined;
  const target = architectures[arch];
  const program: Instruction[] = [
    { code: loadWord, jt: 0, jf: 0, k: archOffset },
    { code: jumpIfEqual, jt: 1, jf: 0, k: target.audit },
    { code: returnValue, jt: 0, jf: 0, k: killProcess },
    { code: loadWord, jt: 0, jf: 0, k: numberOffset },
    ...(target.hasX32 ? [{ code: jumpIfAtLeast, jt: 'refuse', jf: 0, k: x32Bit }] : []),
    { code: jumpIfEqual, jt: 'refuse', jf: 0, k: target.ioUringSetup },
    { code: jumpIfEqual, jt: 'socket', jf: 0, k: target.socket },
    { code: returnValue, jt: 0, jf: 0, k: allow },
    { code: loadWord, jt: 0, jf: 0, k: firstArgumentOffset, label: 'socket' },
    { code: jumpIfEqual, jt: 'refuse', jf: 0, k: afUnix },
    { code: returnValue, jt: 0, jf: 0, k: allow },
    { code: returnValue, jt: 0, jf: 0, k: errnoEacces, label: 'refuse' },
  ];
  const at = (index: number, target: number | string): number => {
    if (typeof target === 'number') return target;
    return program.findIndex((instruction) => instruction.label === target) - index - 1;
  };
  const bytes = Buffer.alloc(program.length * 8);
  program.forEach((instruction, index) => {
    // struct sock_filter { u16 code; u8 jt; u8 jf; u32 k; }, in the machine's (little-endian) order.
    bytes.writeUInt16LE(instruction.code, index * 8);
    bytes.writeUInt8(at(index, instruction.jt), index * 8 + 2);
    bytes.writeUInt8(at(index, instruction.jf), index * 8 + 3);
    bytes.writeUInt32LE(instruction.k >>> 0, index * 8 + 4);
  });
  return bytes;
}
