import Database from "better-sqlite3";
import { symmetricEncrypt } from "@latchkey/core";
import { SECRET } from "./flow.ts";
import { unsignedJwt } from "./id-token-signer.ts";

/** One `account` row as the reference writes it on SQLite (camelCase columns, ISO dates). */
export interface SeedAccount {
  id: string;
  providerId?: string;
  accountId: string;
  /** ID-token claims (stored as a JWT), or none. */
  idTokenClaims?: Record<string, unknown>;
  /** Plain access token; stored encrypted when `encrypt` is set. */
  accessToken?: string;
  accessTokenExpiresAt?: Date;
}

/** Inserts a user and its account per seed, straight into the SQLite file (no Latchkey code). */
export async function seedAccounts(file: string, seeds: SeedAccount[], encrypt: boolean): Promise<void> {
  const db = new Database(file);
  try {
    const now = new Date("2025-06-01T00:00:00.000Z").toISOString();
    const user = db.prepare(
      'INSERT INTO "user" ("id", "name", "email", "emailVerified", "image", "createdAt", "updatedAt") VALUES (?, ?, ?, 1, NULL, ?, ?)',
    );
    const account = db.prepare(
      'INSERT INTO "account" ("id", "accountId", "providerId", "userId", "accessToken", "refreshToken", "idToken", "accessTokenExpiresAt", "refreshTokenExpiresAt", "scope", "password", "createdAt", "updatedAt") VALUES (?, ?, ?, ?, ?, NULL, ?, ?, NULL, ?, NULL, ?, ?)',
    );
    for (const seed of seeds) {
      const userId = `user-${seed.id}`;
      user.run(userId, seed.id, `${seed.id}@contoso.example`, now, now);
      const accessToken = seed.accessToken
        ? encrypt
          ? await symmetricEncrypt({ key: SECRET, data: seed.accessToken })
          : seed.accessToken
        : null;
      account.run(
        seed.id,
        seed.accountId,
        seed.providerId ?? "microsoft",
        userId,
        accessToken,
        seed.idTokenClaims ? unsignedJwt(seed.idTokenClaims) : null,
        seed.accessTokenExpiresAt?.toISOString() ?? null,
        "openid,profile,email,User.Read,offline_access",
        now,
        now,
      );
    }
  } finally {
    db.close();
  }
}

/** `account.id` → `accountId`, read with plain SQL. */
export function accountIds(file: string): Record<string, string> {
  const db = new Database(file, { readonly: true });
  try {
    const rows = db.prepare('SELECT "id", "accountId" FROM "account" ORDER BY "id"').all() as {
      id: string;
      accountId: string;
    }[];
    return Object.fromEntries(rows.map((r) => [r.id, r.accountId]));
  } finally {
    db.close();
  }
}
