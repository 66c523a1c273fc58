/** The longest text Telegram accepts in one message. */
export const telegramMessageLimit = 4096;

/** The largest file the Bot API lets a bot download (getFile refuses bigger ones). */
export const telegramDownloadLimitBytes = 20 * 1024 * 1024;
