import { sso as referenceSSO } from "@better-auth/sso";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sso } from "@latchkey/sso";
import { signUp } from "./support/flows.ts";
import { createPair, jsonPost, type Handler, type Pair } from "./support/instances.ts";
import { OFFLINE_OIDC_CONFIG, providerBody, registerProvider } from "./support/sso-provider.ts";

/**
 * `schema.ssoProvider.additionalFields` configured alike on both sides over one database: a
 * provider registered with them on either side shows them on the other, updates land in the
 * same column, and a field clients may not set is refused alike.
 */
const schema = {
  ssoProvider: {
    additionalFields: {
      tier: { type: "string", required: true },
      seats: { type: "number", required: false, defaultValue: 5 },
      internalNote: { type: "string", required: false, returned: false },
      locked: { type: "boolean", required: false, input: false, defaultValue: false },
    },
  },
} as const;

const call = async (handler: Handler, cookie: string, path: string, body?: unknown) => {
  const response = await handler(
    body === undefined
      ? new Request(`http://localhost:3000/api/auth${path}`, { headers: { cookie } })
      : jsonPost(path, body, { cookie }),
  );
  return {
    status: response.status,
    json: (await response.json().catch(() => null)) as Record<string, unknown> | null,
  };
};

/** The additional-field part of a provider answer. */
const extra = (json: Record<string, unknown> | null) =>
  Object.fromEntries(
    Object.entries(json ?? {}).filter(([key]) => ["tier", "seats", "internalNote", "locked"].includes(key)),
  );

describe("sso: additional fields on ssoProvider match the reference", () => {
  let pair: Pair;
  beforeAll(async () => {
    pair = await createPair({
      reference: { plugins: [referenceSSO({ schema: schema as never })] },
      latchkey: { plugins: [sso({ schema })] },
    });
  });
  afterAll(() => pair.close());

  it.each([
    ["reference", "latchkey"],
    ["latchkey", "reference"],
  ] as const)("registered on %s, read and updated on %s", async (maker, reader) => {
    const owner = await signUp(pair.reference, {
      email: `fields-${maker}@example.com`,
      password: "password-1234",
      name: "F",
    });
    const id = `fields-${maker}`;
    const created = await registerProvider(pair[maker], owner, {
      providerId: id,
      oidcConfig: OFFLINE_OIDC_CONFIG,
      tier: "gold",
      internalNote: "ops",
    });
    expect(extra(created)).toEqual({ tier: "gold", seats: 5, locked: false });
    const row = pair.db
      .prepare("select tier, seats, internalNote, locked from ssoProvider where providerId = ?")
      .all([id]);
    expect(row).toEqual([{ tier: "gold", seats: 5, internalNote: "ops", locked: 0 }]);

    const mine = await call(pair[maker], owner.cookie, `/sso/get-provider?providerId=${id}`);
    const theirs = await call(pair[reader], owner.cookie, `/sso/get-provider?providerId=${id}`);
    expect(extra(theirs.json)).toEqual(extra(mine.json));
    expect(extra(theirs.json)).toEqual({ tier: "gold", seats: 5, locked: false });

    const updated = await call(pair[reader], owner.cookie, "/sso/update-provider", {
      providerId: id,
      seats: 9,
    });
    expect(extra(updated.json)).toEqual({ tier: "gold", seats: 9, locked: false });
    const back = await call(pair[maker], owner.cookie, `/sso/get-provider?providerId=${id}`);
    expect(extra(back.json)).toEqual({ tier: "gold", seats: 9, locked: false });
  });

  it("a field clients may not set is refused alike", async () => {
    const owner = await signUp(pair.reference, {
      email: "fields-locked@example.com",
      password: "password-1234",
      name: "F",
    });
    const answers = [];
    for (const side of ["reference", "latchkey"] as const) {
      const refused = await call(pair[side], owner.cookie, "/sso/register", {
        ...providerBody({ providerId: `locked-${side}`, oidcConfig: OFFLINE_OIDC_CONFIG }),
        tier: "gold",
        locked: true,
      });
      answers.push([refused.status, refused.json?.message]);
    }
    expect(answers[1]).toEqual(answers[0]);
    expect(answers[0]).toEqual([400, "locked is not allowed to be set"]);
  });
});
