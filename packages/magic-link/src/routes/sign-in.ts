import { emailFormat, endpoint, formCsrfMiddleware, type EndpointContext } from "@latchkey/core";
import * as v from "valibot";
import type { ResolvedMagicLinkOptions } from "../options.js";
import { newToken, storedToken } from "../token.js";

const body = v.object({
  email: v.pipe(v.string(), emailFormat()),
  name: v.optional(v.string()),
  callbackURL: v.optional(v.string()),
  newUserCallbackURL: v.optional(v.string()),
  errorCallbackURL: v.optional(v.string()),
  metadata: v.optional(v.record(v.string(), v.unknown())),
});

type SignInBody = v.InferOutput<typeof body>;

/** The link the user follows: `<baseURL>/magic-link/verify` with the token and the callback URLs. */
export function verifyLink(ctx: EndpointContext, token: string, input: SignInBody): string {
  const base = new URL(ctx.context.baseURL);
  const pathname = base.pathname === "/" ? "" : base.pathname.replace(/\/+$/, "");
  const link = new URL(`${pathname}/magic-link/verify`, base.origin);
  link.searchParams.set("token", token);
  link.searchParams.set("callbackURL", input.callbackURL || "/");
  if (input.newUserCallbackURL) link.searchParams.set("newUserCallbackURL", input.newUserCallbackURL);
  if (input.errorCallbackURL) link.searchParams.set("errorCallbackURL", input.errorCallbackURL);
  return link.toString();
}

/**
 * `POST /sign-in/magic-link` `{ email, name?, callbackURL?, newUserCallbackURL?,
 * errorCallbackURL?, metadata? }`: stores a single-use token and mails its link. Answers
 * `{ status: true }` without looking the address up, so known and unknown addresses get the
 * same answer after the same work (no enumeration).
 */
export const signInMagicLink = (options: ResolvedMagicLinkOptions) =>
  endpoint(
    "/sign-in/magic-link",
    {
      method: "POST",
      body,
      requireHeaders: true,
      // JSON only: the reference answers a form post 415, and so does this route.
      use: [formCsrfMiddleware],
    },
    async (ctx) => {
      const { email, name, metadata } = ctx.body;
      const token = await newToken(options, email);
      await ctx.context.internalAdapter.createVerificationValue(
        {
          identifier: await storedToken(options, token),
          // The reference's value: the address as typed and the optional name, as JSON.
          value: JSON.stringify({ email, name }),
          expiresAt: new Date(Date.now() + options.expiresIn * 1000),
        },
        ctx,
      );
      await options.sendMagicLink({ email, url: verifyLink(ctx, token, ctx.body), token, metadata }, ctx);
      return { status: true };
    },
  );
