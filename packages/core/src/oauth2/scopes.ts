/**
 * The scopes of a stored `account.scope`: comma-separated (the 1.1 format), or
 * space-separated as 1.0 wrote them (spec, Known fields: account `scope`).
 */
export function parseStoredScopes(scope: string | null | undefined): string[] {
  if (!scope) return [];
  return scope.split(/[,\s]+/).filter(Boolean);
}

/** Stored scopes plus new ones, stored order first, no duplicates, comma-joined (linking merges). */
export function mergeScopes(
  stored: string | null | undefined,
  incoming: readonly string[] | undefined,
): string {
  return [
    ...new Set([...parseStoredScopes(stored), ...(incoming ?? []).map((s) => s.trim()).filter(Boolean)]),
  ].join(",");
}
