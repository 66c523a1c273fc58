import { FileBox, type FileBoxInterface } from 'file-box';
import { mock, PuppetMock } from 'wechaty-puppet-mock';
import { waitFor } from './start-test-app.js';

type ContactMock = mock.ContactMock;
type RoomMock = mock.RoomMock;

/** A message the bot sent, as the mock puppet recorded it. */
export type SentByBot = { readonly conversationId: string; readonly text: string };

/** A WeChat world on wechaty-puppet-mock: the bot's account, people, rooms, and what the bot sent where. */
export type WechatMockWorld = {
  readonly puppet: PuppetMock;
  readonly mocker: mock.Mocker;
  /** The bot's own account. */
  readonly self: ContactMock;
  contact(id: string, name: string, alias?: string): ContactMock;
  /** A room; its id must contain `@` (the mock routes sends to rooms by that). */
  room(id: string, topic: string, members: readonly ContactMock[]): RoomMock;
  /** Logs the bot in and emits `ready`, which the mock never does by itself. */
  login(): void;
  /** A person writes privately to the bot, or in a room (mentioning the bot or not); returns the message id. */
  say(from: ContactMock, text: string, where?: { readonly room: RoomMock; readonly mentionBot: boolean }): string;
  /** A person writes privately in a message with a given platform id (as a redelivery after a restart would). */
  sayWithId(from: ContactMock, text: string, messageId: string): void;
  /** A person sends a picture privately; returns the message id. */
  sendPicture(from: ContactMock): string;
  /** A person sends a file privately (an image by its name: .png, .jpg; a document: .txt, .pdf); returns the message id. */
  sendFile(from: ContactMock, name: string, bytes: Buffer): string;
  /** Files the bot sent (the mock cannot store a file read from disk, so sends are recorded here). */
  readonly sentFiles: readonly { readonly conversationId: string; readonly name: string; readonly bytes: Buffer }[];
  /** The puppet reports a message again (as after a reconnect). */
  replay(messageId: string): void;
  /** Every text the bot sent to a contact or room, in order. */
  sentTo(conversationId: string): readonly string[];
  /** Waits until the bot has sent at least `count` texts to a conversation. */
  waitForSent(conversationId: string, count: number, timeoutMs?: number): Promise<readonly string[]>;
  /** Every send from now on throws this (WeChat's risk control, a dropped connection). */
  failSends(error: Error): void;
};

/** Builds the world; the channel under test gets `world.puppet`. */
export function createWechatMockWorld(): WechatMockWorld {
  const mocker = new mock.Mocker();
  const puppet = new PuppetMock({ mocker });
  const self = mocker.createContact({ id: 'echo-bot', name: 'Echo' });
  const sent: SentByBot[] = [];
  const seen: string[] = [];
  const sentFiles: { conversationId: string; name: string; bytes: Buffer }[] = [];
  // An own property shadows the prototype's method, which is what wechaty calls.
  Object.defineProperty(puppet, 'messageSendFile', {
    configurable: true,
    value: async (conversationId: string, file: FileBoxInterface) => {
      sentFiles.push({ conversationId, name: file.name, bytes: await file.toBuffer() });
      return undefined;
    },
  });

  puppet.on('message', ({ messageId }) => {
    seen.push(messageId);
    const payload = mocker.messagePayload(messageId);
    if (payload.talkerId !== self.id || payload.text === undefined) return;
    const conversationId = 'roomId' in payload && payload.roomId ? payload.roomId : 'listenerId' in payload ? (payload.listenerId ?? '') : '';
    sent.push({ conversationId, text: payload.text });
  });

  const lastSeen = () => {
    const id = seen.at(-1);
    if (id === undefined) throw new Error('the mock recorded no message');
    return id;
  };

  return {
    puppet,
    mocker,
    self,
    contact: (id, name, alias) => mocker.createContact({ id, name, alias }),
    room: (id, topic, members) => mocker.createRoom({ id, topic, memberIdList: [self.id, ...members.map((member) => member.id)], ownerId: self.id }),
    login() {
      mocker.login(self);
      puppet.emit('ready', { data: 'ready' });
    },
    say(from, text, where) {
      // The mock emits synchronously, so the newest id seen is this message's.
      if (where) from.say(where.mentionBot ? `@${self.payload.name} ${text}` : text, where.mentionBot ? [self] : []).to(where.room);
      else from.say(text).to(self);
      return lastSeen();
    },
    sayWithId(from, text, messageId) {
      mocker.MessageMock.create({ id: messageId, talkerId: from.id, listenerId: self.id, timestamp: Date.now(), type: 7, text });
      puppet.emit('message', { messageId });
    },
    sendPicture(from) {
      const message = mocker.MessageMock.create({ id: `picture-${seen.length}`, talkerId: from.id, listenerId: self.id, timestamp: Date.now(), type: 6 });
      puppet.emit('message', { messageId: message.id });
      return message.id;
    },
    sendFile(from, name, bytes) {
      // As the mock stores a file message: its payload, and the file box cached under the message id. 6: Image, 1: Attachment.
      const type = /\.(png|jpe?g)$/i.test(name) ? 6 : 1;
      const message = mocker.MessageMock.create({ id: `file-${seen.length}`, talkerId: from.id, listenerId: self.id, timestamp: Date.now(), type });
      mocker.cacheFileBoxPayload.set(message.id, FileBox.fromBase64(bytes.toString('base64'), name).toJSON());
      puppet.emit('message', { messageId: message.id });
      return message.id;
    },
    sentFiles,
    replay(messageId) {
      puppet.emit('message', { messageId });
    },
    sentTo: (conversationId) => sent.filter((item) => item.conversationId === conversationId).map((item) => item.text),
    async waitForSent(conversationId, count, timeoutMs) {
      return waitFor(
        () => {
          const texts = sent.filter((item) => item.conversationId === conversationId).map((item) => item.text);
          return texts.length >= count ? texts : undefined;
        },
        `${count} message(s) from the bot to ${conversationId} (so far: ${JSON.stringify(sent.filter((item) => item.conversationId === conversationId).map((item) => item.text))})`,
        timeoutMs,
      );
    },
    failSends(error) {
      // An own property shadows the prototype's method, which is what wechaty calls.
      Object.defineProperty(puppet, 'messageSendText', { configurable: true, value: async () => Promise.reject(error) });
    },
  };
}
