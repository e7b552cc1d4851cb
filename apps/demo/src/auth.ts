import { kyselyAdapter } from "@latchkey/adapter-kysely";
import { createAuth } from "@latchkey/core";
import { anonymous } from "@latchkey/anonymous";
import { emailOTP } from "@latchkey/email-otp";
import { jwt } from "@latchkey/jwt";
import { magicLink } from "@latchkey/magic-link";
import { multiSession } from "@latchkey/multi-session";
import { organization } from "@latchkey/organization";
import { username } from "@latchkey/username";
import type { Kysely } from "kysely";
import type { DemoTables } from "./database.js";
import type { Outbox } from "./outbox.js";

export interface DemoAuthOptions {
  db: Kysely<DemoTables>;
  secret: string;
  baseURL: string;
  outbox: Outbox;
}

/**
 * The demo's auth instance: email and password with verification and reset mails delivered to
 * the outbox, several signed-in accounts per browser (`multiSession`), JWTs (`jwt`), and
 * organizations with teams whose invitations land in the outbox too (`organization`), and
 * passwordless sign-in: magic links and one-time codes mailed to the outbox (`magicLink`,
 * `emailOTP`), guests (`anonymous`) and usernames (`username`).
 */
export function createDemoAuth({ db, secret, baseURL, outbox }: DemoAuthOptions) {
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
    ],
  });
}

export type DemoAuth = ReturnType<typeof createDemoAuth>;
