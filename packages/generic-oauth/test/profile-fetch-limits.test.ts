import { createServer, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { GenericOAuthConfig } from "../src/index.ts";
import { AUTH, genericInstance, sessionOf, signIn } from "./support/instance.ts";
import { startOAuth2Server, type OAuth2Server } from "./support/oauth2-server.ts";

let provider: OAuth2Server;
let profiles: Server;
let profilesURL = "";
const open = new Set<ServerResponse>();

// A profile API that misbehaves by path: an endless body, or a redirect to a metadata address.
beforeAll(async () => {
  provider = await startOAuth2Server({});
  profiles = createServer((req, res) => {
    open.add(res);
    res.on("close", () => open.delete(res));
    if (req.url === "/endless") {
      res.writeHead(200, { "content-type": "application/json" });
      res.write('{"id":"1","email":"big@example.com","padding":"');
      const chunk = Buffer.alloc(65_536, 0x61);
      const pump = (): void => {
        while (!res.destroyed && res.write(chunk));
        if (!res.destroyed) res.once("drain", pump);
      };
      pump();
      return;
    }
    res.writeHead(302, { location: "http://169.254.169.254/latest/meta-data/" });
    res.end();
  });
  await new Promise<void>((resolve) => profiles.listen(0, "127.0.0.1", resolve));
  profilesURL = `http://127.0.0.1:${(profiles.address() as AddressInfo).port}`;
});

afterAll(async () => {
  for (const res of open) res.destroy();
  profiles.closeAllConnections();
  await new Promise<void>((resolve) => profiles.close(() => resolve()));
  await provider.close();
});

const config = (userInfoUrl: string): GenericOAuthConfig => ({
  providerId: "plain",
  clientId: "app-client",
  clientSecret: "app-secret",
  authorizationUrl: `${provider.url}/authorize`,
  tokenUrl: `${provider.url}/token`,
  userInfoUrl,
});

describe("profile endpoint limits (boundedFetch)", () => {
  it("an endless profile body is cut at the size cap and the sign-in fails with unable_to_get_user_info", async () => {
    const { browser } = genericInstance({ config: [config(`${profilesURL}/endless`)] });
    const landed = await signIn(browser, { provider: "plain" });
    expect(landed.href).toBe(`${AUTH}/error?error=unable_to_get_user_info`);
    expect(await sessionOf(browser)).toBeNull();
  });

  it("a profile endpoint that redirects is not followed: unable_to_get_user_info", async () => {
    const { browser } = genericInstance({ config: [config(`${profilesURL}/moved`)] });
    const landed = await signIn(browser, { provider: "plain" });
    expect(landed.href).toBe(`${AUTH}/error?error=unable_to_get_user_info`);
    expect(await sessionOf(browser)).toBeNull();
  });
});
