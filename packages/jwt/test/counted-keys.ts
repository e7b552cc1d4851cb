import { client, TEST_BASE_URL, TEST_SECRET, type TestAuth } from "@latchkey/test-support";
import { SignJWT } from "jose";
import type { JwkRow, NewJwkRow } from "../src/index.ts";
import { importPrivateKey, newKeyRow } from "../src/key-pair.ts";
import { resolveJwtOptions } from "../src/options.ts";
import { probedInstance } from "./instance.ts";

const resolved = resolveJwtOptions();

/** An instance whose keys live in `stored` (the custom adapter), counting the reads of the set. */
export async function counted(open: TestAuth[]) {
  const stored: JwkRow[] = [];
  const counter = { reads: 0 };
  const t = await probedInstance({
    adapter: {
      getJwks: async () => {
        counter.reads += 1;
        return [...stored];
      },
      createJwk: async (data: NewJwkRow) => {
        const row = { ...data, id: `key-${stored.length + 1}` };
        stored.push(row);
        return row;
      },
    },
  });
  open.push(t);
  const c = client(t.auth);
  const sign = async () => ((await c.post("/probe/sign", { payload: { sub: "s1" } })).json as { token: string }).token;
  const verify = async (token: string) => ((await c.post("/probe/verify", { token })).json as { payload: unknown }).payload;
  /** A key another node stored, and a token it signed with it. */
  const foreignKey = async (id: string, claims: { sub?: string; exp?: number | string } = {}) => {
    // Made a moment after this process's key, so it is the newer one.
    const row = { ...(await newKeyRow(resolved.keyPairConfig, resolved, TEST_SECRET, new Date(Date.now() + 1000))), id };
    stored.push(row);
    const key = await importPrivateKey(row, resolved, TEST_SECRET);
    const token = await new SignJWT({ sub: claims.sub ?? "s2" })
      .setProtectedHeader({ alg: "EdDSA", kid: id })
      .setIssuer(TEST_BASE_URL)
      .setAudience(TEST_BASE_URL)
      .setExpirationTime(claims.exp ?? "5m")
      .sign(key);
    return { row, token };
  };
  return { t, stored, counter, sign, verify, foreignKey, c };
}
