import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createAuth, memoryAdapter, type LatchkeyOptions, type LogLevel, type Row } from "../../src/index.ts";
import { MISSING_BASE_URL_WARNING } from "../../src/auth/base-url-warning.ts";
import { BASE_URL_ENV } from "../../src/auth/resolve-base.ts";
import { createOutbox } from "../support/outbox.ts";
import { SECRET } from "../support/instance.ts";

// Every variable the base URL may come from; the test decides which one is set.
const URL_ENV = [...BASE_URL_ENV, "BASE_URL"];

beforeEach(() => {
  for (const name of URL_ENV) vi.stubEnv(name, "");
});
afterEach(() => {
  vi.unstubAllEnvs();
});

/** An instance whose logger writes into `lines` (the sink is the logger option's own hook). */
function instance(options: Partial<LatchkeyOptions> = {}) {
  const lines: Array<{ level: LogLevel; message: string }> = [];
  const outbox = createOutbox();
  const store: Record<string, Row[]> = {};
  const auth = createAuth({
    database: memoryAdapter(store),
    secret: SECRET,
    emailAndPassword: { enabled: true, sendResetPassword: outbox.sendResetPassword },
    logger: { log: (level, message) => lines.push({ level, message }) },
    ...options,
  });
  const warnings = () => lines.filter((l) => l.level === "warn" && l.message === MISSING_BASE_URL_WARNING);
  return { auth, outbox, warnings };
}

const post = (origin: string, path: string, body: unknown): Request =>
  new Request(`${origin}/api/auth${path}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });

describe("start-up warning without a base URL", () => {
  it("is logged once at createAuth, through the configured logger, with the fix", async () => {
    const { auth, outbox, warnings } = instance();
    expect(warnings()).toHaveLength(1);
    const message = warnings()[0]!.message;
    expect(message).toContain("Host header");
    expect(message).toContain("password-reset link");
    expect(message).toContain("baseURL");
    expect(message).toContain("allowedHosts");

    // Why it matters: the reset link follows the host the request named (a Node server builds
    // request.url from the Host header), so a forged Host points the victim's link elsewhere.
    const ada = { name: "Ada", email: "ada@example.com", password: "correct horse battery" };
    expect((await auth.handler(post("http://app.test", "/sign-up/email", ada))).status).toBe(200);
    const res = await auth.handler(post("http://attacker.test", "/request-password-reset", { email: ada.email }));
    expect(res.status).toBe(200);
    expect(new URL(outbox.last("reset").url).host).toBe("attacker.test");
    // Requests never repeat the warning: it belongs to the instance, not to each request.
    expect(warnings()).toHaveLength(1);
  });

  it("is logged once per instance", () => {
    const first = instance();
    const second = instance();
    expect(first.warnings()).toHaveLength(1);
    expect(second.warnings()).toHaveLength(1);
  });

  it("is not logged when baseURL is set, and the link then keeps the configured host", async () => {
    const { auth, outbox, warnings } = instance({ baseURL: "http://app.test" });
    expect(warnings()).toHaveLength(0);
    const ada = { name: "Ada", email: "ada@example.com", password: "correct horse battery" };
    await auth.handler(post("http://app.test", "/sign-up/email", ada));
    await auth.handler(post("http://attacker.test", "/request-password-reset", { email: ada.email }));
    expect(new URL(outbox.last("reset").url).host).toBe("app.test");
  });

  it("is not logged when BETTER_AUTH_URL is set", () => {
    vi.stubEnv("BETTER_AUTH_URL", "http://app.test");
    expect(instance().warnings()).toHaveLength(0);
  });

  it("is not logged with a dynamic baseURL (allowedHosts)", () => {
    expect(instance({ baseURL: { allowedHosts: ["app.test"] } }).warnings()).toHaveLength(0);
  });

  it("respects the logger's level: nothing reaches a sink set to error", () => {
    const lines: string[] = [];
    createAuth({
      database: memoryAdapter({}),
      secret: SECRET,
      logger: { level: "error", log: (_level, message) => lines.push(message) },
    });
    expect(lines).not.toContain(MISSING_BASE_URL_WARNING);
  });
});
