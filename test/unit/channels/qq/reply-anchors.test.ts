import { describe, expect, it } from 'vitest';
import { createReplyAnchors } from '../../../../channels/qq/reply-anchors.js';

const at = (minutes: number) => new Date(Date.UTC(2026, 0, 1, 12, minutes));

describe('reply anchors', () => {
  it('names the message asked for while QQ takes replies to it, then the newest one that QQ still does', () => {
    const anchors = createReplyAnchors();
    anchors.remember('c2c:A', { messageId: 'm1', sentAt: at(0), scene: 'c2c' });
    anchors.remember('c2c:A', { messageId: 'm2', sentAt: at(30), scene: 'c2c' });
    expect(anchors.pick('c2c:A', { preferred: 'm1', now: at(40) })?.messageId).toBe('m1');
    // m1 is past its 60 minutes; m2 is not.
    expect(anchors.pick('c2c:A', { preferred: 'm1', now: at(70) })?.messageId).toBe('m2');
    expect(anchors.pick('c2c:A', { now: at(95) })).toBeUndefined();
    expect(anchors.find('c2c:A', 'm1')?.messageId).toBe('m1');
    expect(anchors.pick('c2c:B', { now: at(0) })).toBeUndefined();
  });

  it('moves on once a message took its five replies, and keeps the group window of 5 minutes', () => {
    const anchors = createReplyAnchors();
    anchors.remember('group:G', { messageId: 'g1', sentAt: at(0), scene: 'group' });
    anchors.remember('group:G', { messageId: 'g2', sentAt: at(1), scene: 'group' });
    const first = anchors.pick('group:G', { preferred: 'g1', now: at(2) });
    for (let reply = 0; reply < 5; reply += 1) if (first) anchors.counted(first);
    expect(anchors.pick('group:G', { preferred: 'g1', now: at(2) })?.messageId).toBe('g2');
    expect(anchors.pick('group:G', { preferred: 'g2', now: at(7) })).toBeUndefined();
  });
});
