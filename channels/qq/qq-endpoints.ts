/** QQ's default OpenAPI root (messages, /gateway). */
export const qqApiRoot = 'https://api.sgroup.qq.com';

/** Where QQ issues app access tokens (`/app/getAppAccessToken`). */
export const qqTokenRoot = 'https://bots.qq.com';
