import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { pngBytes } from '../../fakes/media-samples.js';
import { waitFor } from '../../fakes/start-test-app.js';
import { startWechatScenario, type WechatScenario } from '../../fakes/wechat-scenario.js';

let scenario: WechatScenario | undefined;
afterEach(async () => {
  await scenario?.stop();
  scenario = undefined;
});

const lastUserContent = (current: WechatScenario) => [...(current.turnRequests().at(-1)?.body?.messages ?? [])].reverse().find((message) => message.role === 'user')?.content;

describe('WeChat: pictures and files through wechaty-puppet-mock', () => {
  it('an image reaches the model as an image part, a text file as its content', async () => {
    scenario = await startWechatScenario({ environment: { WECHAT_ALLOW_FROM: 'alice' } });
    const { world, answer } = scenario;
    const alice = world.contact('alice', 'Alice');
    answer({ text: '一个像素' });
    world.sendFile(alice, 'photo.png', pngBytes);
    expect(await world.waitForSent('alice', 1)).toEqual(['一个像素']);
    expect(lastUserContent(scenario)).toEqual([{ type: 'image_url', image_url: { url: `data:image/png;base64,${pngBytes.toString('base64')}` } }]);

    answer({ text: '收到清单' });
    world.sendFile(alice, 'list.txt', Buffer.from('milk\neggs\n'));
    expect(await world.waitForSent('alice', 2)).toEqual(['一个像素', '收到清单']);
    expect(lastUserContent(scenario)).toBe('[File "list.txt", text/plain, 10 B: a text file; its content follows between the markers.]\n<<<file\nmilk\neggs\n\nfile>>>');
  });

  it('send_file sends a workspace file as a FileBox, then its caption as text', async () => {
    scenario = await startWechatScenario({ environment: { WECHAT_ALLOW_FROM: 'alice' }, configYaml: 'tools:\n  profile: coding\n' });
    const { world, answer, testApp } = scenario;
    const alice = world.contact('alice', 'Alice');
    writeFileSync(join(testApp.dataDir, 'workspace', 'chart.png'), pngBytes);
    answer({ toolCalls: [{ name: 'send_file', arguments: { path: 'chart.png', caption: '图表' } }] }, { text: '发好了' });
    world.say(alice, '把图表发给我');
    await waitFor(() => world.sentTo('alice').includes('发好了'), 'the final answer');
    expect(world.sentFiles.map((file) => ({ conversationId: file.conversationId, name: file.name, same: file.bytes.equals(pngBytes) }))).toEqual([{ conversationId: 'alice', name: 'chart.png', same: true }]);
    expect(world.sentTo('alice')).toEqual(['图表', '发好了']);
  });
});
