/** The `/device/code` parameters that must appear at most once (RFC 6749 §3.2: "MUST NOT be included more than once"). */
export const DEVICE_CODE_PARAMS = ["client_id", "user_id", "scope"] as const;

/**
 * The first `/device/code` parameter sent more than once with a value in a url-encoded body,
 * or undefined. Empty values do not count, as in the reference.
 */
export function repeatedParam(formBody: string, names: readonly string[] = DEVICE_CODE_PARAMS): string | undefined {
  const params = new URLSearchParams(formBody);
  return names.find((name) => params.getAll(name).filter((value) => value.length > 0).length > 1);
}

/**
 * The body with each of those parameters reduced to its one non-empty value (an empty copy
 * beside a real value is dropped, as the reference reads it), or undefined when nothing changes.
 */
export function withEffectiveParams(formBody: string, names: readonly string[] = DEVICE_CODE_PARAMS): string | undefined {
  const params = new URLSearchParams(formBody);
  let changed = false;
  for (const name of names) {
    const values = params.getAll(name);
    if (values.length < 2) continue;
    changed = true;
    params.delete(name);
    const value = values.find((v) => v.length > 0);
    if (value !== undefined) params.set(name, value);
  }
  return changed ? params.toString() : undefined;
}
