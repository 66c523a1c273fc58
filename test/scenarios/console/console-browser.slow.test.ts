import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { PendingApproval } from '../../../src/approvals/pending-approval.js';
import { repositoryRoot } from '../../fakes/run-compiled.js';
import { waitFor } from '../../fakes/start-test-app.js';
import type { EmulatedBotMessage } from '../../fakes/telegram-emulator.js';
import { startTelegramScenario, type TelegramScenario } from '../../fakes/telegram-scenario.js';

const chromiumPath = '/usr/bin/chromium';
const hasChromium = existsSync(chromiumPath);
// Screenshots for docs/console.md and the README, only when asked (so a CI run never dirties the tree).
const screenshots = process.env.ECHO_CONSOLE_SCREENSHOTS === '1';
const reminder = { name: 'schedule_task', arguments: { schedule: '0 9 * * *', prompt: 'Water the plants' } };
const consoleOn = 'console:\n  enabled: true\napprovals:\n  explain: false\n';

if (!hasChromium) console.warn(`console browser test skipped: ${chromiumPath} is missing (apt-get install chromium; .ci/run installs it)`);

async function shoot(page: Page, name: string): Promise<void> {
  if (!screenshots) return;
  const folder = join(repositoryRoot, 'docs', 'images');
  mkdirSync(folder, { recursive: true });
  await page.screenshot({ path: join(folder, `console-${name}.png`), fullPage: true });
}

async function linkFromChat(scenario: TelegramScenario, userId: number, seen: number): Promise<string> {
  const client = scenario.client({ userId });
  await client.sendMessage(client.makeMessage('/console'));
  const message = await waitFor(() => scenario.botMessages(userId).filter((candidate) => candidate.text.includes('/console/login?token=')).at(seen), 'the console link in the chat');
  const url = /(http:\/\/[\w.:-]+\/console\/login\?token=[0-9a-f]{64})/.exec(message.text)?.[1];
  if (url === undefined) throw new Error(`no link in: ${message.text}`);
  return url;
}

describe.skipIf(!hasChromium)('web console in a real browser (Chromium, Telegram emulator, scripted model)', () => {
  let browser: Browser | undefined;
  let scenario: TelegramScenario | undefined;
  beforeAll(async () => {
    browser = await chromium.launch({
      executablePath: chromiumPath,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    });
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
  });
  afterEach(async () => {
    await scenario?.stop();
    scenario = undefined;
  });

  it('an approver logs in with the /console link, sees a new card arrive live, approves it; the action completes and the chat card says it was decided in the console', async () => {
    scenario = await startTelegramScenario({ allowFrom: '1001,2002', approvers: '1001', yaml: consoleOn });
    const current = scenario;
    const context = await (browser as Browser).newContext({ viewport: { width: 1100, height: 800 } });
    const page = await context.newPage();
    const url = await linkFromChat(current, 1001, 0);

    await page.goto(url);
    await shoot(page, 'login');
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.waitForURL(/\/console\/approvals$/);
    expect(await page.textContent('main')).toContain('Nothing is waiting for you.');

    // The model proposes a risky call in the chat: the card appears in the open page without a reload.
    current.model.enqueue({ toolCalls: [reminder] });
    const client = current.client({ userId: 1001 });
    await client.sendMessage(client.makeMessage('remind me to water the plants every morning'));
    const card = await current.waitForBotMessage((message) => (message.keyboard?.length ?? 0) > 0, 'the approval card in the chat');
    const consoleCard = page.locator('article[data-approval]');
    await consoleCard.waitFor({ timeout: 20_000 });
    expect(await consoleCard.textContent()).toContain('schedule_task');
    expect(await consoleCard.textContent()).toContain('Water the plants');
    await shoot(page, 'approvals');
    // The same card on a phone.
    const phone = await context.newPage();
    await phone.setViewportSize({ width: 390, height: 800 });
    await phone.goto(url.replace(/\/console\/login.*$/, '/console/approvals'));
    expect(await phone.locator('article[data-approval]').count()).toBe(1);
    await shoot(phone, 'phone');
    await phone.close();

    current.model.enqueue({ text: 'Your reminder is set.' });
    await consoleCard.getByRole('button', { name: 'Approve' }).click();
    await page.waitForURL(/done=done/);
    expect(await page.textContent('.flash')).toContain('Decided');
    await current.waitForBotMessage((message) => message.text === 'Your reminder is set.', 'the answer after the approval');
    const edited = await current.waitForBotMessage((message: EmulatedBotMessage) => message.messageId === card.messageId && message.text.includes('(in the console)'), 'the chat card marked as decided in the console');
    expect(edited.text).toContain('Approved by @user1001');
    expect(edited.keyboard).toEqual([]);
    const approvalId = /<code>([a-z0-9]+)<\/code>/.exec(card.text)?.[1] ?? '';
    expect(await current.testApp.app.store.namespace<PendingApproval>('approvals').get(approvalId)).toMatchObject({ status: 'approved', decidedVia: 'console' });
    await page.goto(page.url().replace(/\?.*$/, ''));
    await shoot(page, 'approvals-decided');

    await page.goto(url.replace(/\/console\/login.*$/, '/console/activity'));
    expect(await page.textContent('main')).toContain('schedule_task');
    expect(await page.textContent('main')).toContain('Model calls');
    await page.locator('main table a').first().click();
    await page.locator('#turn').waitFor();
    expect(await page.textContent('#turn')).toContain('approval-decided');
    await shoot(page, 'activity');
    for (const name of ['usage', 'schedules', 'health']) {
      await page.goto(url.replace(/\/console\/login.*$/, `/console/${name}`));
      expect(await page.locator('main h2').count()).toBeGreaterThan(0);
      if (name === 'schedules') {
        // The approved reminder is a job now: pause it from the console, through the scheduler.
        await page.getByRole('button', { name: 'Pause' }).click();
        await page.waitForURL(/done=schedule-pause/);
        expect(await page.textContent('main')).toContain('paused by @user1001 (console)');
        const jobs = await current.testApp.app.store.namespace<{ paused?: { by: string } }>('schedules').entries();
        expect(jobs.some(([, job]) => job.paused?.by === '@user1001 (console)')).toBe(true);
      }
      await shoot(page, name);
    }
    expect(await page.textContent('main')).toContain('telegram');
    await context.close();
  }, 120_000);

  it('refuses a reused link, a non-approver’s decision and a POST without the CSRF token; a decision in the chat shows in the open console at once', async () => {
    scenario = await startTelegramScenario({ allowFrom: '1001,2002', approvers: '1001', yaml: consoleOn });
    const current = scenario;
    current.model.enqueue({ toolCalls: [reminder] });
    const asker = current.client({ userId: 2002 });
    await asker.sendMessage(asker.makeMessage('remind me to water the plants every morning'));
    const card = await current.waitForBotMessage((message) => (message.keyboard?.length ?? 0) > 0, 'the approval card');

    // A non-approver logs in and sees the request they made, without buttons; a forged decision is refused.
    const memberContext = await (browser as Browser).newContext();
    const member = await memberContext.newPage();
    const memberUrl = await linkFromChat(current, 2002, 0);
    await member.goto(memberUrl);
    await member.getByRole('button', { name: 'Log in' }).click();
    await member.waitForURL(/\/console\/approvals$/);
    expect(await member.textContent('main')).toContain('schedule_task');
    expect(await member.locator('button.approve').count()).toBe(0);
    const approvalId = (await member.locator('article[data-approval]').getAttribute('data-approval')) ?? '';
    const csrf = (await member.locator('input[name="csrf"]').first().getAttribute('value')) ?? '';
    const forged = await member.request.post(memberUrl.replace(/\/console\/login.*$/, '/console/act/decide'), { form: { csrf, id: approvalId, choice: 'once' }, maxRedirects: 0 });
    expect(forged.headers().location).toBe('/console/approvals?done=not-allowed');

    // The same link opened again (another device) is refused.
    const otherContext = await (browser as Browser).newContext();
    const other = await otherContext.newPage();
    await other.goto(memberUrl);
    await other.getByRole('button', { name: 'Log in' }).click();
    expect(await other.textContent('main')).toContain('used already');

    // The approver's session without the CSRF token decides nothing.
    const approverContext = await (browser as Browser).newContext();
    const approver = await approverContext.newPage();
    await approver.goto(await linkFromChat(current, 1001, 0));
    await approver.getByRole('button', { name: 'Log in' }).click();
    await approver.waitForURL(/\/console\/approvals$/);
    const withoutToken = await approver.request.post(memberUrl.replace(/\/console\/login.*$/, '/console/act/decide'), { form: { id: approvalId, choice: 'once' }, maxRedirects: 0 });
    expect(withoutToken.status()).toBe(403);
    expect(await current.testApp.app.store.namespace<PendingApproval>('approvals').get(approvalId)).toMatchObject({ status: 'pending' });

    // Decided with the chat button instead: the open console page shows it at once, without a reload.
    expect(await approver.locator('article[data-approval]').count()).toBe(1);
    current.model.enqueue({ text: 'Your reminder is set.' });
    const boss = current.client({ userId: 1001, chatId: 2002 });
    const approveData = card.keyboard?.flat().find((button) => /Approve/.test(button.text))?.callback_data ?? '';
    await boss.sendCallback(boss.makeCallbackQuery(approveData, { message: { message_id: card.messageId } }));
    await approver.locator('article[data-approval]').waitFor({ state: 'detached', timeout: 20_000 });
    expect(await approver.textContent('main')).toContain('in a chat');
    await Promise.all([memberContext.close(), otherContext.close(), approverContext.close()]);
  }, 120_000);
});
