import { describe, expect, it } from 'vitest';
import { describeClusterRoles } from '../../../src/doctor/describe-cluster-roles.js';

describe('describeClusterRoles', () => {
  it("says what each channel needs of the instances, from its adapter's declaration", () => {
    const lines = describeClusterRoles([
      { name: 'poller-bot', cluster: { leaderRole: 'poller', handsOffSends: false } },
      { name: 'login-bot', cluster: { leaderRole: 'login', handsOffSends: true } },
      { name: 'stateless' },
    ]);
    expect(lines.map((line) => line.text)).toEqual([
      'poller-bot: one instance at a time holds its poller',
      'login-bot: one instance at a time holds its login; the others hand their sends to it',
    ]);
  });
});
