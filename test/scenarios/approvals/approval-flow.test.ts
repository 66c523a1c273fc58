import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createId } from '../../../src/events/create-id.js';
import { approvalsConfigYaml, createDeployTool, deployingModel } from '../../fakes/deploy-tool.js';
import { createScriptedModelServer, type ScriptedModelServer } from '../../fakes/scripted-model-server.js';
import { startTestApp, type TestApp, waitFor } from '../../fakes/start-test-app.js';

let model: ScriptedModelServer;
let folder: string;
const running: TestApp[] = [];

beforeAll(async () => {
  model = await createScriptedModelServer({ fallback: deployingModel });
  folder = mkdtempSync(join(tmpdir(), 'echo-approvals-'));
});
afterAll(async () => {
  await model.close();
  rmSync(folder, { recursive: true, force: true });
});
afterEach(async () => {
  while (running.length > 0) await running.pop()?.stop();
});

async function startChat(options: { timeoutMinutes?: number; dataDir?: string; sweepEveryMs?: number } = {}) {
  const configFile = join(folder, `config-${createId()}.yaml`);
  writeFileSync(configFile, approvalsConfigYaml({ timeoutMinutes: options.timeoutMinutes }));
  const deploy = createDeployTool();
  const test = await startTestApp({
    mode: 'chat',
    configFile,
    dataDir: options.dataDir,
    environment: { OPENAI_BASE_URL: model.url },
    extraTools: [deploy.tool],
    sweepEveryMs: options.sweepEveryMs,
  });
  running.push(test);
  const type = (line: string) => test.terminalInput.write(`${line}\n`);
  const cardId = () => /Id (\w+)\)/.exec(test.terminalText())?.[1];
  return { test, deploy, type, cardId };
}

function modelSawText(text: string): boolean {
  return model.requests.some((request) => JSON.stringify(request.body?.messages ?? []).includes(text));
}

describe('approvals through the terminal channel, with the scripted model over HTTP and a real SQLite file', () => {
  it('asks before a risky call, and runs it once approved', async () => {
    const { test, deploy, type, cardId } = await startChat();
    type('please deploy staging');
    const id = await waitFor(cardId, 'the approval card');
    expect(test.terminalText()).toContain('Deploy the service to staging');
    expect(test.terminalText()).toContain('"target": "staging"');
    expect(deploy.runs).toEqual([]);

    type(`/approve ${id}`);
    await waitFor(() => test.terminalText().includes('done: deployed to staging'), 'the resumed answer');
    expect(deploy.runs).toEqual(['staging']);
    expect(test.terminalText()).toMatch(new RegExp(`\\[${id}\\] Approved by \\S+ at \\d\\d:\\d\\d`));
  });

  it('does not run a denied call, and the model reads the denial', async () => {
    const { test, deploy, type, cardId } = await startChat();
    type('deploy production');
    const id = await waitFor(cardId, 'the approval card');
    type(`/deny ${id} not on a Friday`);
    await waitFor(() => test.terminalText().includes('done: Not run:'), 'the answer after the denial');
    expect(deploy.runs).toEqual([]);
    expect(modelSawText('denied this action (reason: not on a Friday)')).toBe(true);
    expect(test.terminalText()).toContain(`[${id}] Denied by`);
  });

  it('accepts a numbered reply (1) for the newest card, as on channels without buttons', async () => {
    const { test, deploy, type, cardId } = await startChat();
    type('deploy qa');
    await waitFor(cardId, 'the approval card');
    type('1');
    await waitFor(() => test.terminalText().includes('done: deployed to qa'), 'the resumed answer');
    expect(deploy.runs).toEqual(['qa']);
  });

  it('expires a card nobody decides; the model is told and the tool never runs', async () => {
    const { test, deploy, type, cardId } = await startChat({ timeoutMinutes: 0.002, sweepEveryMs: 30 });
    type('deploy canary');
    const id = await waitFor(cardId, 'the approval card');
    await waitFor(() => test.terminalText().includes(`[${id}] Expired`), 'the expiry line');
    await waitFor(() => test.terminalText().includes('done: Not run: nobody approved this action in time'), 'the answer after expiry');
    expect(deploy.runs).toEqual([]);
    type(`/approve ${id}`);
    await waitFor(() => test.terminalText().includes('Already decided: Expired'), 'the late press refused');
    expect(deploy.runs).toEqual([]);
  });

  it("refuses a non-approver's press visibly and changes nothing", async () => {
    const { test, deploy, type, cardId } = await startChat();
    type('deploy staging');
    const id = await waitFor(cardId, 'the approval card');
    const published = await test.app.bus.publish({
      type: 'action-clicked',
      id: createId(),
      traceId: createId(),
      at: new Date().toISOString(),
      channel: 'cli',
      chatId: 'local',
      sessionKey: 'cli:local',
      origin: 'user',
      unattended: false,
      sender: { id: 'mallory', displayName: '@mallory' },
      action: 'approval',
      actionId: id,
      choice: 'once',
    });
    expect(published.accepted).toBe(true);
    await waitFor(() => test.terminalText().includes('! Only approvers can decide this.'), 'the refusal');
    expect(deploy.runs).toEqual([]);
    const record = await test.app.store.namespace<{ status: string }>('approvals').get(id);
    expect(record?.status).toBe('pending');
  });

  it('decides exactly once: a second press says who decided and when', async () => {
    const { test, deploy, type, cardId } = await startChat();
    type('deploy staging');
    const id = await waitFor(cardId, 'the approval card');
    type(`/approve ${id}`);
    type(`/deny ${id}`);
    await waitFor(() => test.terminalText().includes('! Already decided: Approved by'), 'the second press answered');
    await waitFor(() => test.terminalText().includes('done: deployed to staging'), 'the resumed answer');
    expect(deploy.runs).toEqual(['staging']);
  });

  it('always: a second identical call runs without asking', async () => {
    const { test, deploy, type, cardId } = await startChat();
    type('deploy staging');
    const id = await waitFor(cardId, 'the approval card');
    type(`/approve ${id} always`);
    await waitFor(() => test.terminalText().includes('done: deployed to staging'), 'the first run');
    const cardsBefore = test.terminalText().split('Approval needed').length;
    type('deploy staging');
    await waitFor(() => deploy.runs.length === 2, 'the second run');
    expect(test.terminalText().split('Approval needed').length).toBe(cardsBefore);
    type('/approvals');
    await waitFor(() => test.terminalText().includes('1. deploy: Deploy the service to staging'), 'the grant listed');
  });

  it('keeps the chat usable while a card waits: a new message is answered and history stays valid', async () => {
    const { test, deploy, type, cardId } = await startChat();
    type('deploy staging');
    const id = await waitFor(cardId, 'the approval card');
    type('how is the weather');
    await waitFor(() => test.terminalText().includes('echo: how is the weather'), 'the answer to the new message');
    // The waiting call already has exactly one (placeholder) result, so the model request was valid.
    expect(modelSawText(`Waiting for a person to approve (approval ${id})`)).toBe(true);
    type(`/approve ${id}`);
    await waitFor(() => deploy.runs.length === 1, 'the approved run');
    await waitFor(() => modelSawText(`The approval ${id} was settled`), 'the update note to the model');
  });

  it('resumes the turn in a new process when the decision arrives after a restart', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'echo-restart-'));
    const first = await startChat({ dataDir });
    first.type('deploy production');
    const id = await waitFor(first.cardId, 'the approval card');
    await first.test.stop({ keepData: true });
    running.splice(running.indexOf(first.test), 1);

    const second = await startChat({ dataDir });
    second.type(`/approve ${id}`);
    await waitFor(() => second.test.terminalText().includes('done: deployed to production'), 'the answer from the new process');
    expect(first.deploy.runs).toEqual([]);
    expect(second.deploy.runs).toEqual(['production']);
    await second.test.stop();
    running.splice(running.indexOf(second.test), 1);
    rmSync(dataDir, { recursive: true, force: true });
  });
});
