import { TEST_SECRET, type TestAuth } from "@latchkey/test-support";
import { afterEach, describe, expect, it, vi } from "vitest";
import { KEY_CACHE_TTL_MS } from "../src/key-cache.ts";
import { newKeyRow } from "../src/key-pair.ts";
import { resolveJwtOptions } from "../src/options.ts";
import { counted } from "./counted-keys.ts";
import { jwtApi } from "./instance.ts";

let open: TestAuth[] = [];
afterEach(async () => {
  vi.useRealTimers();
  await Promise.all(open.map((t) => t.close()));
  open = [];
});

describe("a token verified once is remembered, never past what would refuse it", () => {
  it("its expiry: refused once exp has passed, though it verified a moment before", async () => {
    const { verify, foreignKey } = await counted(open);
    vi.useFakeTimers({ toFake: ["Date"] });
    const { token } = await foreignKey("short-lived", { exp: Math.floor(Date.now() / 1000) + 2 });
    expect(await verify(token)).toMatchObject({ sub: "s2" });
    expect(await verify(token)).toMatchObject({ sub: "s2" });
    vi.setSystemTime(Date.now() + 3000);
    expect(await verify(token)).toBeNull();
  });

  it("its key: refused once the key is gone from the set (as soon as the key cache reads the set again)", async () => {
    const { stored, verify, foreignKey } = await counted(open);
    vi.useFakeTimers({ toFake: ["Date"] });
    const { token } = await foreignKey("to-be-removed");
    expect(await verify(token)).toMatchObject({ sub: "s2" });
    stored.splice(0, stored.length);
    vi.setSystemTime(Date.now() + KEY_CACHE_TTL_MS + 1000);
    expect(await verify(token)).toBeNull();
  });

  it("its key's material: another public key under the same kid verifies nothing signed by the old one", async () => {
    const { stored, verify, foreignKey } = await counted(open);
    vi.useFakeTimers({ toFake: ["Date"] });
    const { token, row } = await foreignKey("replaced");
    expect(await verify(token)).toMatchObject({ sub: "s2" });
    const options = resolveJwtOptions();
    stored[stored.indexOf(row)] = { ...(await newKeyRow(options.keyPairConfig, options, TEST_SECRET)), id: "replaced" };
    vi.setSystemTime(Date.now() + KEY_CACHE_TTL_MS + 1000);
    expect(await verify(token)).toBeNull();
  });

  it("the checks asked: another issuer, or a changed signature, is refused after a success", async () => {
    const { t, verify, foreignKey } = await counted(open);
    const { token } = await foreignKey("checked");
    expect(await verify(token)).toMatchObject({ sub: "s2" });
    const api = jwtApi(t);
    expect((await api.verifyJWT({ body: { token, issuer: "https://other.test" } })).payload).toBeNull();
    const [header, payload, signature] = token.split(".") as [string, string, string];
    const flipped = `${signature.slice(0, -2)}${signature.endsWith("AA") ? "BA" : "AA"}`;
    expect(await verify(`${header}.${payload}.${flipped}`)).toBeNull();
    expect(await verify(token)).toMatchObject({ sub: "s2" });
  });
});
