/**
 * Config YAML that lifts the Telegram channel's send limits. The emulator has none and neither has the
 * bare bot, so the figures are the runtime's own cost, not Telegram's real limits (1 message/s per chat,
 * 30/s overall) that the channel obeys by default.
 */
export const liftedTelegramLimitsYaml = 'channels:\n  telegram:\n    limits:\n      perChatPerSecond: 100000\n      perChatBurst: 100000\n      perGroupPerMinute: 100000\n      globalPerSecond: 100000\n';
