/** OIDC Core §5.5: the `claims` request parameter, as an object, or undefined when it is not one. */
export function parseClaimsRequest(value: unknown): Record<string, unknown> | undefined {
  let parsed = value;
  if (typeof value === "string") {
    try {
      parsed = JSON.parse(value);
    } catch {
      return undefined;
    }
  }
  if (!parsed || typeof parsed !== "object" || Array.isArray(parsed)) return undefined;
  const record = parsed as Record<string, unknown>;
  for (const member of ["userinfo", "id_token"]) {
    const part = record[member];
    if (part !== undefined && (part === null || typeof part !== "object" || Array.isArray(part))) return undefined;
  }
  return record;
}

/** Whether a `claims` value (absent counts) is a valid claims request. */
export const isValidClaimsRequest = (value: unknown): boolean => value === undefined || parseClaimsRequest(value) !== undefined;

/** Names asked for individually under `claims.userinfo`, limited to the claims the provider supports. */
export function requestedUserInfoClaims(value: unknown, supported: readonly string[]): string[] {
  const userinfo = parseClaimsRequest(value)?.userinfo as Record<string, unknown> | undefined;
  if (!userinfo) return [];
  const known = new Set(supported);
  return Object.keys(userinfo).filter((name) => known.has(name));
}

/** OIDC Core §5.5.1.1: an essential `acr` request the provider (which only knows acr "0") cannot meet. */
export function essentialAcrUnmet(value: unknown): boolean {
  const acr = (parseClaimsRequest(value)?.id_token as Record<string, unknown> | undefined)?.acr as
    | { essential?: unknown; value?: unknown; values?: unknown }
    | null
    | undefined;
  if (!acr || acr.essential !== true) return false;
  const wanted = acr.values !== undefined ? acr.values : acr.value !== undefined ? [acr.value] : undefined;
  return Array.isArray(wanted) && !wanted.includes("0");
}
