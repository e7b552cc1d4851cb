import { generateRandomString, hmacBase64Url, verifyHmacBase64Url, type EndpointContext } from "@latchkey/core";

/** Cookie name (after the prefix) of a trusted device. */
export const TRUST_DEVICE_COOKIE = "trust_device";

/** The `trust_device` cookie spec with `maxAge` seconds. */
export const trustDeviceCookie = (ctx: EndpointContext, maxAge: number) => ctx.context.authCookies.create(TRUST_DEVICE_COOKIE, { maxAge });

/**
 * Marks this browser trusted for `maxAge` seconds: a verification row `trust-device-<32
 * random>` holding the user id, and the signed cookie `<mac>!<identifier>`, where the MAC
 * (HMAC-SHA-256 of `<userId>!<identifier>` under the secret, base64url) binds the identifier
 * to the user. Formats as the reference, so trust set by either side holds on the other.
 */
export async function trustDevice(ctx: EndpointContext, userId: string, maxAge: number): Promise<void> {
  const identifier = `trust-device-${generateRandomString(32)}`;
  const mac = await hmacBase64Url(ctx.context.secret, `${userId}!${identifier}`);
  await ctx.context.internalAdapter.createVerificationValue(
    { value: userId, identifier, expiresAt: new Date(Date.now() + maxAge * 1000) },
    ctx,
  );
  const cookie = trustDeviceCookie(ctx, maxAge);
  await ctx.setSignedCookie(cookie.name, `${mac}!${identifier}`, cookie.attributes);
}

/** The identifier a trust cookie names, when its MAC binds it to `userId` (compared in constant time). */
async function trustedIdentifier(ctx: EndpointContext, value: string, userId: string): Promise<string | null> {
  const [mac, identifier] = value.split("!");
  if (!mac || !identifier) return null;
  return (await verifyHmacBase64Url(ctx.context.secret, `${userId}!${identifier}`, mac)) ? identifier : null;
}

/**
 * At a sign-in of `userId`: true when the browser's trust cookie is valid, and then the trust is
 * rotated (new identifier and cookie, a fresh `maxAge`). The old record is consumed atomically,
 * so one cookie replayed by parallel sign-ins lets exactly one of them skip the second factor
 * (the reference reads, then deletes). An invalid or stale cookie is expired; false.
 */
export async function redeemTrustedDevice(ctx: EndpointContext, userId: string, maxAge: number): Promise<boolean> {
  const cookie = trustDeviceCookie(ctx, maxAge);
  const value = await ctx.getSignedCookie(cookie.name);
  if (!value) return false;
  const identifier = await trustedIdentifier(ctx, value, userId);
  if (identifier) {
    const record = await ctx.context.internalAdapter.consumeVerificationValue(identifier);
    // Reference: the record must expire after now (strictly), not at this instant.
    if (record && record.value === userId && record.expiresAt.getTime() > Date.now()) {
      await trustDevice(ctx, userId, maxAge);
      return true;
    }
  }
  ctx.expireCookie(cookie);
  return false;
}

/** On disable: forgets this browser's trust record and expires its cookie. */
export async function forgetTrustedDevice(ctx: EndpointContext, maxAge: number): Promise<void> {
  const cookie = trustDeviceCookie(ctx, maxAge);
  const value = await ctx.getSignedCookie(cookie.name);
  if (!value) return;
  const identifier = value.split("!")[1];
  if (identifier) await ctx.context.internalAdapter.deleteVerificationByIdentifier(identifier);
  ctx.expireCookie(cookie);
}
