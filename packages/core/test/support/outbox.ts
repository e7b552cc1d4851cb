import type { User } from "../../src/index.ts";

/** One mail an application sender was asked to send. */
export interface Mail {
  kind: "verification" | "reset" | "change-email" | "delete";
  /** The address it goes to. */
  to: string;
  url: string;
  token: string;
  user: User;
  newEmail?: string;
}

/**
 * An injected outbox: sender functions for every mail option that push to `mails`
 * instead of mailing (the only faked thing in these tests).
 */
export function createOutbox() {
  const mails: Mail[] = [];
  return {
    mails,
    sendVerificationEmail: async (data: { user: User; url: string; token: string }) => {
      mails.push({ kind: "verification", to: data.user.email, ...data });
    },
    sendResetPassword: async (data: { user: User; url: string; token: string }) => {
      mails.push({ kind: "reset", to: data.user.email, ...data });
    },
    sendChangeEmailConfirmation: async (data: {
      user: User;
      newEmail: string;
      url: string;
      token: string;
    }) => {
      mails.push({ kind: "change-email", to: data.user.email, ...data });
    },
    sendDeleteAccountVerification: async (data: { user: User; url: string; token: string }) => {
      mails.push({ kind: "delete", to: data.user.email, ...data });
    },
    /** The last mail of `kind`; fails the test when there is none. */
    last(kind: Mail["kind"]): Mail {
      const mail = mails.filter((m) => m.kind === kind).at(-1);
      if (!mail) throw new Error(`no ${kind} mail was sent`);
      return mail;
    },
  };
}

/** The claims of a JWT, decoded without verifying (to inspect what was issued). */
export function jwtParts(token: string): {
  header: Record<string, unknown>;
  claims: Record<string, unknown>;
} {
  const [header = "", claims = ""] = token.split(".");
  const decode = (part: string) =>
    JSON.parse(Buffer.from(part, "base64url").toString("utf8")) as Record<string, unknown>;
  return { header: decode(header), claims: decode(claims) };
}

/** A path plus query of a mailed link, relative to the auth base path (for `request`). */
export function linkPath(url: string): string {
  const parsed = new URL(url);
  return `${parsed.pathname.replace(/^\/api\/auth/, "")}${parsed.search}`;
}
