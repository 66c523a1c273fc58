import type { ChannelClusterNeeds } from '../events/channel-limits.js';
import { type DoctorLine, doctorLine } from './doctor-line.js';

/** In cluster mode, what each configured channel needs of the instances, as its adapter declares: one line each. Pure. */
export function describeClusterRoles(channels: readonly { readonly name: string; readonly cluster?: ChannelClusterNeeds }[]): DoctorLine[] {
  return channels.flatMap(({ name, cluster }) =>
    cluster === undefined
      ? []
      : [doctorLine('ok', 'cluster', `${name}: one instance at a time holds its ${cluster.leaderRole}${cluster.handsOffSends ? '; the others hand their sends to it' : ''}`)],
  );
}
