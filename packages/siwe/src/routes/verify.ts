import { emailFormat, endpoint, getClientIP, setSessionCookie, type EndpointContext } from "@latchkey/core";
import * as v from "valibot";
import { checksumAddress } from "../checksum-address.js";
import { siweError } from "../error-codes.js";
import { isValidNonce, nonceIdentifier } from "../nonce.js";
import type { SIWEPluginOptions } from "../options.js";
import { normalizeDomain, parseSiweMessage, type SiweMessageFields } from "../parse-message.js";
import { walletUser } from "../wallet-user.js";

const EMAIL_REQUIRED = "Email is required when the anonymous plugin option is disabled.";

/** The body `/siwe/verify` reads. */
interface VerifyBody {
  message: string;
  signature: string;
  email?: string | undefined;
}

/** What a client may send: the body, plus the legacy wallet fields where accepted. */
type VerifyInput = VerifyBody & { walletAddress?: unknown; address?: unknown; chainId?: unknown };

function verifyBody(options: SIWEPluginOptions): v.GenericSchema<VerifyInput, VerifyBody> {
  const fields = {
    message: v.pipe(v.string(), v.minLength(1)),
    signature: v.pipe(v.string(), v.minLength(1)),
    email: v.optional(v.pipe(v.string(), emailFormat())),
  };
  const legacy = {
    walletAddress: v.optional(v.unknown()),
    address: v.optional(v.unknown()),
    chainId: v.optional(v.unknown()),
  };
  // Unknown fields are refused; the legacy ones only when the option lets them through.
  const object = (
    options.acceptLegacyWalletFields ? v.strictObject({ ...fields, ...legacy }) : v.strictObject(fields)
  ) as v.GenericSchema<VerifyInput, VerifyBody>;
  if (options.anonymous !== false) return object;
  // The issue points at `email`, so the message reads "[body.email] …" as the reference's does.
  const emailRequired = v.forward<
    VerifyBody & Record<string, unknown>,
    v.CheckIssue<VerifyBody & Record<string, unknown>>,
    ["email"]
  >(
    v.check((body) => !!body.email, EMAIL_REQUIRED),
    ["email"],
  );
  return v.pipe(object as v.GenericSchema<VerifyInput, VerifyBody & Record<string, unknown>>, emailRequired);
}

/**
 * `POST /siwe/verify` `{ message, signature, email? }`: the wallet address, chain id, domain,
 * nonce and validity window all come from the signed EIP-4361 message. The nonce is consumed
 * first (once: 401 `UNAUTHORIZED_INVALID_OR_EXPIRED_NONCE` after), then the message is checked
 * against the configured domain and its window, then `verifyMessage` checks the signature.
 * Signs the wallet's user in: `{ token, success: true, user: { id, walletAddress, chainId } }`.
 */
export function verifyEndpoint(options: SIWEPluginOptions) {
  return endpoint("/siwe/verify", { method: "POST", body: verifyBody(options) }, async (ctx) => {
    const { message, signature, email } = ctx.body;
    const fields = parseSiweMessage(message);
    if (!isValidNonce(fields.nonce)) throw siweError(401, "UNAUTHORIZED_SIWE_MESSAGE_MISMATCH");
    const nonce = fields.nonce;
    if (!(await ctx.context.internalAdapter.consumeVerificationValue(nonceIdentifier(nonce))))
      throw siweError(401, "UNAUTHORIZED_INVALID_OR_EXPIRED_NONCE");
    const address = checksumAddress(fields.address);
    const { chainId } = fields;
    const domainMatches =
      !!fields.domain && normalizeDomain(fields.domain) === normalizeDomain(options.domain);
    if (!address || chainId === undefined || chainId <= 0 || !domainMatches)
      throw siweError(401, "UNAUTHORIZED_SIWE_MESSAGE_MISMATCH");
    checkWindow(fields);
    if (!(await signatureVerifies(ctx, options, { message, signature, address, chainId, nonce })))
      throw siweError(401, null, "Unauthorized: Invalid SIWE signature");
    const user = await walletUser(ctx, options, { address, chainId }, email);
    const session = await ctx.context.internalAdapter.createSession(
      user.id,
      false,
      { ipAddress: getClientIP(ctx.headers, ctx.context.options), userAgent: ctx.headers.get("user-agent") },
      ctx,
    );
    if (!session) throw siweError(500, null, "Internal Server Error");
    await setSessionCookie(ctx, { session, user });
    return { token: session.token, success: true, user: { id: user.id, walletAddress: address, chainId } };
  });
}

/** `Expiration Time` passed, or `Not Before` still ahead: 401 (unparseable times are ignored, as in the reference). */
function checkWindow({ expirationTime, notBefore }: SiweMessageFields): void {
  const now = Date.now();
  const expires = expirationTime ? Date.parse(expirationTime) : Number.NaN;
  if (!Number.isNaN(expires) && now >= expires) throw siweError(401, "UNAUTHORIZED_SIWE_MESSAGE_EXPIRED");
  const starts = notBefore ? Date.parse(notBefore) : Number.NaN;
  if (!Number.isNaN(starts) && now < starts) throw siweError(401, "UNAUTHORIZED_SIWE_MESSAGE_NOT_YET_VALID");
}

/**
 * Runs the application's `verifyMessage`. When it throws (viem does for a malformed
 * signature), the answer is the reference's 401 "Something went wrong", without the thrown
 * error's text (logged instead).
 */
async function signatureVerifies(
  ctx: EndpointContext,
  options: SIWEPluginOptions,
  signed: { message: string; signature: string; address: string; chainId: number; nonce: string },
): Promise<boolean> {
  const { message, signature, address, chainId, nonce } = signed;
  const { domain } = options;
  try {
    return await options.verifyMessage({
      message,
      signature,
      address,
      chainId,
      cacao: {
        h: { t: "caip122" },
        p: { domain, aud: domain, nonce, iss: domain, version: "1" },
        s: { t: "eip191", s: signature },
      },
    });
  } catch (error) {
    ctx.context.logger.warn("siwe: verifyMessage threw; the sign-in is refused", error);
    throw siweError(401, null, "Something went wrong. Please try again later.");
  }
}
