import { client, testAuth, type DatabaseKind, type TestAuth, type TestClient } from "@latchkey/test-support";
import type { LatchkeyOptions } from "@latchkey/core";
import { magicLink, type MagicLinkData, type MagicLinkOptions } from "../src/index.ts";

/** The links `sendMagicLink` was asked to mail, newest last. */
export type Outbox = MagicLinkData[];

/** An instance with `magicLink(options)` whose mails land in `outbox`. */
export async function magicInstance(
  db: DatabaseKind,
  options: Partial<MagicLinkOptions> = {},
  extra: Partial<LatchkeyOptions> = {},
): Promise<TestAuth & { outbox: Outbox }> {
  const outbox: Outbox = [];
  const t = await testAuth(
    {
      emailAndPassword: { enabled: true },
      plugins: [magicLink({ sendMagicLink: (data) => void outbox.push(data), ...options })],
      ...extra,
    },
    { db },
  );
  return { ...t, outbox };
}

/** Asks for a link for `email` and returns the one mailed. */
export async function requestLink(
  browser: TestClient,
  outbox: Outbox,
  body: Record<string, unknown>,
): Promise<MagicLinkData> {
  const answer = await browser.post("/sign-in/magic-link", body);
  if (answer.status !== 200) throw new Error(`sign-in/magic-link failed: ${answer.status} ${answer.text}`);
  return outbox.at(-1)!;
}

/** The path and query of a mailed link, for the test client. */
export const linkPath = (url: string): string => {
  const u = new URL(url);
  return `${u.pathname.replace(/^\/api\/auth/, "")}${u.search}`;
};

export { client };
