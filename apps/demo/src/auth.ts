import { kyselyAdapter } from "@latchkey/adapter-kysely";
import { createAuth } from "@latchkey/core";
import { jwt } from "@latchkey/jwt";
import { multiSession } from "@latchkey/multi-session";
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
 * the outbox, several signed-in accounts per browser (`multiSession`) and JWTs (`jwt`).
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
    plugins: [jwt(), multiSession()],
  });
}

export type DemoAuth = ReturnType<typeof createDemoAuth>;
