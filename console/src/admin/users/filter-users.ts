import type { AdminUser } from './users-types';

/** The users whose email, display name, id or group name contains the search text (case-insensitive); all when it is blank. */
export function filterUsers(users: readonly AdminUser[], search: string): AdminUser[] {
  const needle = search.trim().toLowerCase();
  if (needle === '') return [...users];
  return users.filter((user) =>
    [user.email, user.displayName, user.id, ...user.groups.map((group) => group.name)].some((text) => text.toLowerCase().includes(needle)),
  );
}
