/** The named tool profiles; `full` means every registered tool. */
export type ProfileName = 'minimal' | 'messaging' | 'coding' | 'full';

const minimal = ['message', 'ask_user', 'session_search'] as const;
const messaging = [...minimal, 'memory', 'todo', 'schedule_task', 'list_tasks', 'cancel_task', 'web_fetch'] as const;
const coding = [...messaging, 'read_file', 'list_dir', 'write_file', 'edit_file', 'send_file', 'delegate'] as const;

/** Tool names in each profile; `full` is resolved against the registry. */
export const profiles: Readonly<Record<Exclude<ProfileName, 'full'>, readonly string[]>> = { minimal, messaging, coding };

/** The tool names of a profile, given every registered name for `full`. */
export function expandProfile(profile: ProfileName, registeredNames: readonly string[]): readonly string[] {
  return profile === 'full' ? registeredNames : profiles[profile];
}
