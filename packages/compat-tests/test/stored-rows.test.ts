import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signUp } from "./support/flows.ts";
import { createPair, type Handler, type Pair } from "./support/instances.ts";

let pair: Pair;
beforeAll(async () => {
  pair = await createPair();
});
afterAll(() => pair.close());

type Row = Record<string, unknown>;
const FORMATS: Array<[string, RegExp]> = [
  ["<id32>", /^[A-Za-z0-9]{32}$/],
  // Dates on SQLite: ISO-8601 text with milliseconds and Z (core.md §2.4).
  ["<iso-date>", /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/],
  // scrypt: 32 hex salt characters, a colon, 128 hex key characters (core.md §4).
  ["<scrypt-hash>", /^[0-9a-f]{32}:[0-9a-f]{128}$/],
];

/** Each column as its SQLite storage type plus, for strings, the format it matches (or the literal). */
function rowShape(row: Row, literal: Row): Row {
  return Object.fromEntries(
    Object.entries(row).map(([column, value]) => {
      if (typeof value !== "string")
        return [column, value === null ? "null" : `${typeof value}:${String(value)}`];
      if (column in literal) return [column, literal[column] === value ? "<as-expected>" : value];
      return [column, FORMATS.find(([, re]) => re.test(value))?.[0] ?? value];
    }),
  );
}

const rows = (table: string, column: string, value: string): Row[] =>
  pair.db.prepare(`SELECT * FROM "${table}" WHERE "${column}" = ?`).all([value]) as Row[];

async function storedBy(handler: Handler, n: number): Promise<Record<string, Row>> {
  const user = { name: `Stored ${n}`, email: `stored${n}@example.com`, password: "stored-password" };
  const { userId, token } = await signUp(handler, user);
  const [userRow] = rows("user", "id", userId);
  const [accountRow] = rows("account", "userId", userId);
  const [sessionRow] = rows("session", "token", token);
  if (!userRow || !accountRow || !sessionRow)
    throw new Error("sign-up stored no user, account or session row");
  return {
    user: rowShape(userRow, { name: user.name, email: user.email }),
    account: rowShape(accountRow, { accountId: userId, userId, providerId: "credential" }),
    session: rowShape(sessionRow, { userId, token }),
  };
}

describe("rows written by a sign-up", () => {
  it("have the same columns, storage types and value formats on both sides", async () => {
    const reference = await storedBy(pair.reference, 1);
    const latchkey = await storedBy(pair.latchkey, 2);
    expect(latchkey).toEqual(reference);
    // Pin the reference's encoding too, so the comparison cannot pass on two empty shapes.
    expect(reference.user).toMatchObject({
      id: "<id32>",
      emailVerified: "number:0",
      image: "null",
      createdAt: "<iso-date>",
    });
    expect(reference.account).toMatchObject({
      providerId: "<as-expected>",
      password: "<scrypt-hash>",
      accessToken: "null",
    });
    expect(reference.session).toMatchObject({
      token: "<as-expected>",
      expiresAt: "<iso-date>",
      userId: "<as-expected>",
    });
  });
});
