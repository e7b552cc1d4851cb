import { kyselyAdapter } from "@latchkey/adapter-kysely";
import { createAuth, type DatabaseHookContext, type DatabaseHooks } from "@latchkey/core";
import { admin } from "@latchkey/admin";
import { anonymous } from "@latchkey/anonymous";
import { apiKey } from "@latchkey/api-key";
import { captcha } from "@latchkey/captcha";
import { emailOTP } from "@latchkey/email-otp";
import { jwt } from "@latchkey/jwt";
import { magicLink } from "@latchkey/magic-link";
import { multiSession } from "@latchkey/multi-session";
import { oauthProvider } from "@latchkey/oauth-provider";
import { organization } from "@latchkey/organization";
import { passkey } from "@latchkey/passkey";
import { siwe } from "@latchkey/siwe";
import { sso } from "@latchkey/sso";
import { twoFactor } from "@latchkey/two-factor";
import { username } from "@latchkey/username";
import type { Kysely } from "kysely";
import { verifyMessage } from "viem";
import { generateSiweNonce } from "viem/siwe";
import { CAPTCHA_GUARDED_PATHS, type CaptchaConfig } from "./config.js";
import type { DemoTables } from "./database.js";
import type { Outbox } from "./outbox.js";

export interface DemoAuthOptions {
  db: Kysely<DemoTables>;
  secret: string;
  baseURL: string;
  outbox: Outbox;
  /**
   * Addresses whose accounts become administrators when created. Empty: the first account
   * created on an empty database is the administrator.
   */
  adminEmails?: readonly string[];
  /** The captcha in front of sign-up, sign-in and password reset; unset: no captcha. */
  captcha?: CaptchaConfig;
}

/** Where the OpenID provider sends the browser to sign in and to consent (pages of the demo). */
export const OAUTH_LOGIN_PAGE = "/oauth/sign-in";
export const OAUTH_CONSENT_PAGE = "/oauth/consent";

/**
 * The demo's auth instance: email and password with verification and reset mails delivered to
 * the outbox, several signed-in accounts per browser (`multiSession`), JWTs (`jwt`), and
 * organizations with teams whose invitations land in the outbox too (`organization`), and
 * passwordless sign-in: magic links and one-time codes mailed to the outbox (`magicLink`,
 * `emailOTP`), guests (`anonymous`) and usernames (`username`); two-factor sign-in with an
 * authenticator app and backup codes (`twoFactor`), passkeys (`passkey`), and user
 * administration (`admin`) for the accounts {@link adminOnCreate} makes administrators; sign-in
 * with an Ethereum wallet (`siwe`), API keys that authenticate requests (`apiKey`), the demo as
 * an OpenID provider whose login and consent pages are the demo's (`oauthProvider`), single
 * sign-on through a company's OpenID provider registered by a user (`sso`), and, when
 * configured, a captcha in front of the password routes (`captcha`).
 */
export function createDemoAuth({ db, secret, baseURL, outbox, adminEmails = [], captcha: captchaConfig }: DemoAuthOptions) {
  return createAuth({
    database: kyselyAdapter(db),
    secret,
    baseURL,
    emailAndPassword: {
      enabled: true,
      sendResetPassword: async ({ user, url }) =>
        outbox.send({ to: user.email, subject: "Reset your password", url }),
    },
    emailVerification: {
      sendOnSignUp: true,
      autoSignInAfterVerification: true,
      sendVerificationEmail: async ({ user, url }) =>
        outbox.send({ to: user.email, subject: "Verify your email address", url }),
    },
    databaseHooks: adminOnCreate(adminEmails),
    plugins: [
      jwt(),
      multiSession(),
      organization({
        teams: { enabled: true },
        sendInvitationEmail: async ({ id, email, organization: org, inviter }) =>
          outbox.send({
            to: email,
            subject: `${inviter.user.name} invites you to ${org.name}`,
            url: new URL(`/invitation?id=${encodeURIComponent(id)}`, baseURL).toString(),
          }),
      }),
      magicLink({
        sendMagicLink: async ({ email, url }) => outbox.send({ to: email, subject: "Your sign-in link", url }),
      }),
      emailOTP({
        sendVerificationOTP: async ({ email, otp, type }) =>
          outbox.send({ to: email, subject: `Your ${type} code: ${otp}`, code: otp }),
      }),
      anonymous(),
      username(),
      twoFactor({ issuer: "Latchkey demo" }),
      passkey({ rpName: "Latchkey demo" }),
      admin(),
      siwe({
        domain: new URL(baseURL).host,
        getNonce: async () => generateSiweNonce(),
        verifyMessage: ({ message, signature, address }) =>
          verifyMessage({ address: address as `0x${string}`, message, signature: signature as `0x${string}` }),
      }),
      apiKey({ enableSessionForAPIKeys: true, defaultPrefix: "demo_" }),
      oauthProvider({ loginPage: OAUTH_LOGIN_PAGE, consentPage: OAUTH_CONSENT_PAGE }),
      // Identity providers' origins must be trusted: BETTER_AUTH_TRUSTED_ORIGINS (read by core).
      sso(),
      ...(captchaConfig
        ? [
            captcha({
              provider: captchaConfig.provider,
              secretKey: captchaConfig.secretKey,
              endpoints: CAPTCHA_GUARDED_PATHS,
              ...(captchaConfig.siteVerifyURL ? { siteVerifyURLOverride: captchaConfig.siteVerifyURL } : {}),
            }),
          ]
        : []),
    ],
  });
}

export type DemoAuth = ReturnType<typeof createDemoAuth>;

/**
 * Makes a new user an administrator (`role: "admin"`) when their address is in `adminEmails`,
 * or, with no addresses configured, when they are the first user of the database. Runs after
 * the admin plugin's own hook, which fills in the default role.
 */
function adminOnCreate(adminEmails: readonly string[]): DatabaseHooks {
  const listed = new Set(adminEmails.map((email) => email.toLowerCase()));
  const before = async (user: { email?: unknown }, ctx: DatabaseHookContext) => {
    const email = String(user.email).toLowerCase();
    const isAdmin =
      listed.size > 0 ? listed.has(email) : ctx !== null && (await ctx.context.adapter.count({ model: "user" })) === 0;
    return isAdmin ? { data: { role: "admin" } } : undefined;
  };
  return { user: { create: { before } } };
}
