/** Client identification and authentication members (RFC 6749 §2.3, RFC 7523 §2.2). */
const CLIENT_MEMBERS = new Set(["client_id", "client_secret", "client_assertion", "client_assertion_type"]);

/** One form member read, or why it is refused. */
export type MemberRead = { value: string | undefined } | { description: string };

/**
 * A form member that must appear at most once (RFC 6749 §3.1). Routes read forms keeping every
 * value, so a repeat arrives as a list: refused. For the client members, empty values do not
 * count (as the reference reads them: `client_id=&client_id=x` is `x`); the reference refuses
 * only those repeated, and keeps the last value of any other member (DIVERGENCES.md row 129).
 */
export function singleMember(name: string, raw: unknown): MemberRead {
  let value = raw;
  if (Array.isArray(value)) {
    const given = CLIENT_MEMBERS.has(name) ? value.filter((item) => item !== "") : value;
    if (given.length > 1) return { description: `${name} must not be repeated` };
    value = given[0];
  }
  if (value === undefined || value === "") return { value: undefined };
  if (typeof value !== "string") return { description: `${name} must be a string` };
  return { value };
}
