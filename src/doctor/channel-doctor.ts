import type { Config } from '../config/config-schema.js';
import type { DoctorLine } from './doctor-line.js';

/** What `npm run doctor` hands a channel's checks. */
export type ChannelDoctorContext = {
  readonly config: Config;
  /** The channel's name, its adapter's: the subject of its lines. */
  readonly channelName: string;
  /** Every network check gets this long. */
  readonly timeoutMs: number;
  /** Some channel serves routes its platform reaches from outside (a webhook mode), so the HTTP gateway is public. */
  readonly publicRoutes: boolean;
};

/** A channel's contribution to `npm run doctor`: whether the config turns it on, and its lines. */
export type ChannelDoctor = {
  /** The config turns the channel on (a token set, `enabled: true`): its tool set is then listed. Pure. */
  isConfigured(config: Config): boolean;
  /** Its lines: off and why, or what its settings, credentials and platform say; never a secret's value. */
  check(context: ChannelDoctorContext): Promise<readonly DoctorLine[]>;
};
