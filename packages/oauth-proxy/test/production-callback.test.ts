import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { symmetricDecrypt, symmetricEncrypt } from "@latchkey/core";
import type { TestIdP } from "@latchkey/test-support";
import {
  deployments,
  errorRedirect,
  PREVIEW,
  PROD_AUTH,
  SECRET,
  startAtPreview,
  startProxyIdP,
  type Deployments,
} from "./support/deployments.ts";

let idp: TestIdP;
let t: Deployments;
beforeAll(async () => {
  idp = await startProxyIdP();
});
afterAll(() => idp.close());
afterEach(() => t?.close());

/** The encrypted state package of a flow started at the preview with `/oops` as its error URL. */
async function statePackage(): Promise<string> {
  const url = new URL(await startAtPreview(t.browser, { errorCallbackURL: "/oops" }));
  return url.searchParams.get("state")!;
}

const callback = async (query: string, provider = "idp") =>
  errorRedirect(await t.browser.send(`${PROD_AUTH}/callback/${provider}?${query}`));

describe("production's callback hook", () => {
  it("no code: no_code to the flow's error URL", async () => {
    t = await deployments(idp);
    expect(await callback(`state=${await statePackage()}`)).toEqual({
      status: 302,
      target: `${PREVIEW}/oops`,
      error: "no_code",
    });
  });

  it("a code the provider does not know: invalid_code", async () => {
    t = await deployments(idp);
    const iss = encodeURIComponent(idp.issuer);
    expect(await callback(`code=bogus&iss=${iss}&state=${await statePackage()}`)).toMatchObject({
      error: "invalid_code",
    });
  });

  it("RFC 9207: no `iss` from a provider that announces it is issuer_missing", async () => {
    t = await deployments(idp);
    expect(await callback(`code=bogus&state=${await statePackage()}`)).toMatchObject({
      error: "issuer_missing",
    });
  });

  it("an unknown provider in the path: oauth_provider_not_found", async () => {
    t = await deployments(idp);
    expect(await callback(`code=x&state=${await statePackage()}`, "nope")).toMatchObject({
      error: "oauth_provider_not_found",
    });
  });

  it("RFC 9207: another issuer in `iss` is issuer_mismatch", async () => {
    t = await deployments(idp);
    const iss = encodeURIComponent("http://evil.test");
    expect(await callback(`code=x&iss=${iss}&state=${await statePackage()}`)).toMatchObject({
      error: "issuer_mismatch",
    });
  });

  it("a package whose state is not the one its flow was issued for: state_mismatch", async () => {
    t = await deployments(idp);
    const pack = JSON.parse(await symmetricDecrypt({ key: SECRET, data: await statePackage() })) as Record<
      string,
      unknown
    >;
    const swapped = await symmetricEncrypt({
      key: SECRET,
      data: JSON.stringify({ ...pack, state: "y".repeat(32) }),
    });
    expect(await callback(`code=x&state=${swapped}`)).toEqual({
      status: 302,
      target: `${PREVIEW}/oops`,
      error: "state_mismatch",
    });
  });

  it("a state that is no proxy package is left to the ordinary callback (which refuses an unknown one)", async () => {
    t = await deployments(idp);
    expect(await callback(`code=x&state=${"z".repeat(32)}`)).toEqual({
      status: 302,
      target: `${PROD_AUTH}/error`,
      error: "state_mismatch",
    });
    const notAPackage = await symmetricEncrypt({
      key: SECRET,
      data: JSON.stringify({ state: "a", isOAuthProxy: false }),
    });
    expect(await callback(`code=x&state=${notAPackage}`)).toMatchObject({
      target: `${PROD_AUTH}/error`,
      error: "state_mismatch",
    });
  });

  it("a repeated or non-string parameter is not taken by the hook; core answers invalid_callback_request", async () => {
    t = await deployments(idp);
    const pack = await statePackage();
    expect(await callback(`code=a&code=b&state=${pack}`)).toMatchObject({
      error: "invalid_callback_request",
    });
  });
});
