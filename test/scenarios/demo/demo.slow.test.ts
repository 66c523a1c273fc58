import { existsSync } from 'node:fs';
import { connect } from 'node:net';
import { describe, expect, it } from 'vitest';
import { runProcess } from '../../fakes/run-compiled.js';

/** Runs `npm run demo` as a newcomer would. */
const runDemo = (timeoutMs: number) => runProcess('npm', ['run', 'demo'], { timeoutMs });

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

function isListening(url: string): Promise<boolean> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = connect({ host: hostname, port: Number(port) });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

describe('npm run demo', () => {
  it('plays the whole flow offline through the emulator, the scripted model and the real agent, exits 0 and leaves nothing running', async () => {
    const run = await runDemo(120_000);
    const output = `stdout:\n${run.stdout}\nstderr:\n${run.stderr}`;
    expect(run.code, output).toBe(0);
    const transcript = run.stdout;

    // The question, answered.
    expect(transcript).toContain('you      › What can you do?');
    expect(transcript).toMatch(/bot {6}› I'm echo-agent/);
    // The approval card with its buttons, the press, and the card edited into its outcome.
    expect(transcript).toContain('bot card › 🔐 Approval needed');
    expect(transcript).toContain('Remind the user to stretch');
    expect(transcript).toContain('[ ✅ Approve ] [ Always ] [ Allow for this chat ] [ ❌ Deny ]');
    expect(transcript).toContain('you press› ✅ Approve');
    expect(transcript).toMatch(/bot edit › Approved by @demo_user at \d\d:\d\d .*buttons removed/);
    expect(transcript).toMatch(/bot {6}› Done: I'll remind you at \d\d:\d\d:\d\d\./);
    // The reminder, fired by the cron channel into the chat.
    expect(transcript).toMatch(/bot {6}› ⏰ Time to stretch!/);
    // The stranger, refused without reaching the model.
    expect(transcript).toContain('stranger › hi');
    expect(transcript).toContain('is not in TELEGRAM_ALLOW_FROM');
    expect(transcript).toContain('the model server got no request for it');
    expect(transcript).toContain('demo finished');

    // Nothing left behind: the agent process, the two servers, the temporary folder.
    const agentPid = Number(/echo-agent is up \(pid (\d+), data in ([^)]+)\)/.exec(transcript)?.[1]);
    const dataDir = /echo-agent is up \(pid \d+, data in ([^)]+)\)/.exec(transcript)?.[1] ?? '';
    expect(agentPid).toBeGreaterThan(0);
    expect(isRunning(agentPid)).toBe(false);
    expect(dataDir).not.toBe('');
    expect(existsSync(dataDir)).toBe(false);
    const emulatorUrl = /Telegram Bot API emulator\s+(http:\/\/\S+)/.exec(transcript)?.[1] ?? '';
    const modelUrl = /scripted model\s+(http:\/\/\S+)/.exec(transcript)?.[1] ?? '';
    expect(emulatorUrl).not.toBe('');
    expect(modelUrl).not.toBe('');
    expect(await isListening(emulatorUrl)).toBe(false);
    expect(await isListening(modelUrl)).toBe(false);
  }, 130_000);
});
