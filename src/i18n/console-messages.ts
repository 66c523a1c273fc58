/** The chat side of the web console (part of Messages as `console`): `/console` answers and the card's "in the console" mark. */
export type ConsoleMessages = {
  /** The one-time login link, valid for `minutes`, for this person only. */
  readonly link: (url: string, minutes: number) => string;
  /** `/console` while the console is off: what it is and how to turn it on. */
  readonly off: string;
  /** `/console` where no gateway runs (chat mode): the console lives on the gateway. */
  readonly noGateway: string;
  /** `/console` in a group chat: the link is personal, so it is sent only in a private chat. */
  readonly privateOnly: string;
  /** The link could not be stored: nothing to open. */
  readonly notIssued: string;
  /** Appended to a card's outcome line when the decision was made in the console. */
  readonly decidedInConsole: string;
};

/** The English console messages. */
export const englishConsoleMessages: ConsoleMessages = {
  link: (url, minutes) => `Your console link (works once, for you only, for ${minutes} minutes):\n${url}`,
  off: 'The web console is off. An operator turns it on with console.enabled: true (CONSOLE_ENABLED=true) and, behind a proxy, console.publicUrl; then send /console again.',
  noGateway: 'The web console runs on the HTTP gateway, in server mode (npm start); this process has none.',
  privateOnly: 'The console link is personal: send /console to me in a private chat.',
  notIssued: 'The console link could not be saved; try again in a moment.',
  decidedInConsole: ' (in the console)',
};

/** The Chinese console messages. */
export const chineseConsoleMessages: ConsoleMessages = {
  link: (url, minutes) => `你的控制台链接（仅你可用，只能打开一次，${minutes} 分钟内有效）：\n${url}`,
  off: '网页控制台未开启。运维人员可设置 console.enabled: true（CONSOLE_ENABLED=true），在反向代理后还需设置 console.publicUrl；然后再发送 /console。',
  noGateway: '网页控制台运行在 HTTP 网关上（服务器模式，npm start）；当前进程没有网关。',
  privateOnly: '控制台链接仅限本人使用：请在与我的私聊中发送 /console。',
  notIssued: '控制台链接未能保存，请稍后再试。',
  decidedInConsole: '（在控制台中）',
};
