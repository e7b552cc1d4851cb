import { generateId, isEmail, type EndpointContext } from "@latchkey/core";
import { ANONYMOUS_ERROR_CODES } from "./error-codes.js";
import type { AnonymousOptions } from "./options.js";

/**
 * The address of a new anonymous user: the application's `generateRandomEmail` (checked to be
 * an email), else `temp-<id>@<emailDomainName>`, else `<id>@anonymous.placeholder.invalid`
 * (the `.invalid` top-level domain is never resolvable, RFC 6761 §6.4).
 */
export async function anonymousEmail(options: AnonymousOptions): Promise<string> {
  const custom = await options.generateRandomEmail?.();
  if (custom) {
    if (!isEmail(custom)) throw ANONYMOUS_ERROR_CODES.fail("INVALID_EMAIL_FORMAT", "BAD_REQUEST");
    return custom;
  }
  const id = generateId();
  if (options.emailDomainName) return `temp-${id}@${options.emailDomainName}`;
  return `${id}@anonymous.placeholder.invalid`;
}

/** The name of a new anonymous user: `generateName`, or "Anonymous" when it gives nothing. */
export async function anonymousName(options: AnonymousOptions, ctx: EndpointContext): Promise<string> {
  return (await options.generateName?.(ctx)) || "Anonymous";
}
