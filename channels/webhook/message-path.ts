/** The path POST messages arrive on. */
export const messagePath = '/v1/messages';
