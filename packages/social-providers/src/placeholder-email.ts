import { isEmail } from "@latchkey/core";

/**
 * The address given to users of providers that share no email (spec, Social sign-in 4):
 * `<provider account id>@<provider id>.placeholder.invalid`. `.invalid` is reserved
 * (RFC 6761 §6.4), so no mail can reach it, and it is unique per provider account. An id
 * that cannot form an address throws rather than create a user nobody can tell apart.
 */
export function placeholderEmail(accountId: string | number, providerId: string): string {
  const address = `${accountId}@${providerId}.placeholder.invalid`;
  if (!isEmail(address)) throw new TypeError("The provider account id cannot form a placeholder email.");
  return address;
}
