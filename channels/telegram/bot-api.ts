import { Telegram } from 'telegraf';

/** The one call the channel makes to the Bot API: a method, its JSON payload, an abort signal. */
export type BotApi = {
  call(method: string, payload: Readonly<Record<string, unknown>>, signal?: AbortSignal): Promise<unknown>;
};

type LooseCallApi = (method: string, payload: Readonly<Record<string, unknown>>, options: { signal?: AbortSignal }) => Promise<unknown>;

/** telegraf's Bot API client pointed at `apiRoot` (api.telegram.org, a local Bot API server, or an emulator). */
export function createBotApi(options: { readonly token: string; readonly apiRoot: string }): BotApi {
  const telegram = new Telegram(options.token, { apiRoot: options.apiRoot, webhookReply: false });
  // telegraf types each method's payload; the channel builds payloads itself, so it calls the untyped form.
  const callApi = telegram.callApi.bind(telegram) as unknown as LooseCallApi;
  return { call: (method, payload, signal) => callApi(method, payload, { signal }) };
}
