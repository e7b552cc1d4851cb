import { createHmac, randomBytes } from "node:crypto";
import { loadavg } from "node:os";
import { figureRequest } from "../figures.js";
import { withServers, type RunContext, type Target } from "../run-context.js";
import type { DatabaseConfig } from "../server-config.js";
import { newId, openSeed } from "../sqlite-seed.js";
import { seedFetch } from "../seed-fetch.js";
import type { Table } from "../table.js";
import { currentStep, keyOfURI, totpAt } from "../totp.js";
import { measureFigures, pairTable, scaleSpecs, type PairRow } from "./pair-rows.js";

/**
 * Users enrolled in TOTP for the verify-totp figure. Latchkey accepts a code's time step once per
 * user (RFC 6238 §5.2), so requests go round-robin over this many users: at the rates a 2-core
 * machine reaches, a user comes round again only after its 30 s step has passed, and every
 * request is a real, accepted verification on both sides (any 401 would be listed in the notes).
 */
export const TOTP_USERS = 60_000;

export interface CredentialsResult {
  rows: PairRow[];
}

type Key = "latchkey" | "reference";

/**
 * Issue #13 on SQLite: a get-session authenticated by `x-api-key` (session from the key, the
 * key's usage counted exactly by its rate-limit counter, as in the get-session group), and
 * `POST /two-factor/verify-totp` by signed-in users with a valid current code.
 */
export async function runCredentials(ctx: RunContext): Promise<CredentialsResult> {
  const rows: PairRow[] = [];
  const load = () => loadavg()[0] ?? 0;
  const apiKey = scaleSpecs(ctx, ["api-key"]);
  rows.push(
    ...(await withServers(ctx, apiKey, (targets) =>
      measureFigures(
        ctx,
        targets,
        [
          {
            label: "get-session by x-api-key (usage counted)",
            minRatio: 5,
            request: ({ server, user }) => figureRequest("get-session-api-key", server.baseURL, user),
          },
        ],
        load,
      ),
    )),
  );

  const totp = scaleSpecs(ctx, ["two-factor"]);
  rows.push(
    ...(await withServers(ctx, totp, async (targets) => {
      const enrolled = {} as Record<Key, Enrolled>;
      for (const key of ["latchkey", "reference"] as const) {
        const started = performance.now();
        enrolled[key] = await seedTotpUsers(ctx, targets[key], totp[key].settings.database);
        ctx.log(`${key}: ${TOTP_USERS} TOTP users seeded in ${((performance.now() - started) / 1000).toFixed(1)} s`);
      }
      // One position per server that runs on across warm-up and rounds, so no user comes round early.
      const next: Record<Key, number> = { latchkey: 0, reference: 0 };
      return measureFigures(
        ctx,
        targets,
        [
          {
            label: `verify-totp, valid code (${TOTP_USERS} users)`,
            minRatio: null,
            request: ({ server }, key) => ({
              method: "POST",
              requests: [
                {
                  path: "/api/auth/two-factor/verify-totp",
                  setupRequest: (request) => {
                    const i = next[key]++ % TOTP_USERS;
                    return {
                      ...request,
                      headers: {
                        "content-type": "application/json",
                        origin: server.baseURL,
                        cookie: enrolled[key].cookies[i] ?? "",
                      },
                      body: JSON.stringify({ code: totpAt(enrolled[key].totpKey, currentStep()) }),
                    };
                  },
                },
              ],
            }),
          },
        ],
        load,
      );
    })),
  );
  return { rows };
}

interface Enrolled {
  totpKey: Buffer;
  cookies: string[];
}

/**
 * Enrolls the bench user through the API (`/two-factor/enable`, which writes the encrypted
 * secret), turns it on by SQL, and copies user, session and twoFactor rows for TOTP_USERS
 * users sharing that secret; answers the secret and each user's signed session cookie.
 */
async function seedTotpUsers(ctx: RunContext, { server, user }: Target, database: DatabaseConfig): Promise<Enrolled> {
  const base = server.baseURL;
  const enable = await seedFetch(`${base}/api/auth/two-factor/enable`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: base, cookie: user.cookie },
    body: JSON.stringify({ password: user.password }),
  });
  const body = (await enable.json()) as { totpURI?: string };
  if (enable.status !== 200 || !body.totpURI) throw new Error(`two-factor/enable answered ${enable.status}: ${JSON.stringify(body)}`);
  const totpKey = keyOfURI(body.totpURI);
  const db = openSeed(database);
  const cookies: string[] = [];
  try {
    const benchUser = db.one(`select * from "user" where email = ?`, user.email);
    db.run(`update "user" set "twoFactorEnabled" = 1 where id = ?`, benchUser.id);
    db.run(`update "twoFactor" set verified = 1 where "userId" = ?`, benchUser.id);
    const templateUser = db.one(`select * from "user" where id = ?`, benchUser.id);
    const session = db.one(`select * from "session" where "userId" = ? limit 1`, benchUser.id);
    const twoFactor = db.one(`select * from "twoFactor" where "userId" = ?`, benchUser.id);
    const ids: string[] = [];
    db.copies("user", templateUser, TOTP_USERS, (i) => {
      const id = newId();
      ids.push(id);
      return { id, email: `totp-${i}@example.com`, name: `TOTP ${i}` };
    });
    db.copies("session", session, TOTP_USERS, (i) => {
      const token = randomBytes(24).toString("base64url");
      const signature = createHmac("sha256", ctx.secret).update(token).digest("base64");
      cookies.push(`better-auth.session_token=${encodeURIComponent(`${token}.${signature}`)}`);
      return { id: newId(), token, userId: ids[i] };
    });
    db.copies("twoFactor", twoFactor, TOTP_USERS, (i) => ({ id: newId(), userId: ids[i] }));
  } finally {
    db.close();
  }
  // A copied user verifies a code: 200 with its own session token.
  const probe = TOTP_USERS - 1;
  const check = await seedFetch(`${base}/api/auth/two-factor/verify-totp`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: base, cookie: cookies[probe] ?? "" },
    body: JSON.stringify({ code: totpAt(totpKey, currentStep()) }),
  });
  const answer = (await check.json()) as { user?: { email?: string } };
  if (check.status !== 200 || answer.user?.email !== `totp-${probe}@example.com`)
    throw new Error(`verify-totp of a seeded user answered ${check.status}: ${JSON.stringify(answer)}`);
  return { totpKey, cookies };
}

export function credentialsTable(result: CredentialsResult): Table {
  return pairTable("issue #13: API keys and TOTP (SQLite in WAL mode)", result.rows, [
    "x-api-key: the key's rate-limit counter is on (maximum out of reach), so every request is one exactly-counted use of the key on both sides.",
    `verify-totp: signed-in users, each request a different user (round-robin over ${TOTP_USERS}) with the current valid code; rps counts accepted verifications (200) only. Latchkey also records the step as used (RFC 6238 §5.2), the reference does not.`,
  ]);
}
