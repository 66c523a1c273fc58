/** What a leader does: starts its work when it wins a name, stops it when it loses the name. */
export type LeadershipHandlers = {
  readonly onAcquired: () => void | Promise<void>;
  readonly onLost: () => void | Promise<void>;
};

/** One named role (the Telegram poller of a bot, the WeChat login of an account) held by at most one instance. */
export interface Leadership {
  readonly name: string;
  isLeader(): boolean;
  /** Gives the role up (if held) and stops trying to win it. */
  stop(): Promise<void>;
}

/** Where leaderships come from: a shared lock in cluster mode, this process alone otherwise. */
export type LeadershipPort = {
  /** Starts competing for `name`; the handlers run on every change. */
  lead(name: string, handlers: LeadershipHandlers): Leadership;
  /** Names this instance leads now, for `/healthz`. */
  held(): readonly string[];
};

/** One process: it leads every name at once. */
export function createSoleLeadership(): LeadershipPort {
  const held = new Set<string>();
  return {
    lead(name, handlers) {
      held.add(name);
      let leader = true;
      void Promise.resolve(handlers.onAcquired());
      return {
        name,
        isLeader: () => leader,
        async stop() {
          if (!leader) return;
          leader = false;
          held.delete(name);
          await handlers.onLost();
        },
      };
    },
    held: () => [...held],
  };
}
