import { describe, expect, it } from "vitest";
import {
  DEV_SECRET,
  describeDatabase,
  loadConfig,
  parseCaptcha,
  parseDatabaseUrl,
  parseEmailList,
  parsePort,
} from "../src/config.js";

const appDir = "/srv/demo";

describe("parseDatabaseUrl", () => {
  it.each([
    [undefined, "/srv/demo/.data/demo.db"],
    ["", "/srv/demo/.data/demo.db"],
    ["   ", "/srv/demo/.data/demo.db"],
    ["./local.db", "/srv/demo/local.db"],
    ["data/x.sqlite", "/srv/demo/data/x.sqlite"],
    ["/tmp/abs.db", "/tmp/abs.db"],
    ["file:./rel.db", "/srv/demo/rel.db"],
    ["file:/tmp/abs.db", "/tmp/abs.db"],
    ["file:///tmp/abs%20space.db", "/tmp/abs space.db"],
    ["sqlite:rel.db", "/srv/demo/rel.db"],
    ["sqlite://./rel.db", "/srv/demo/rel.db"],
    ["sqlite:///tmp/abs.db", "/tmp/abs.db"],
    [":memory:", ":memory:"],
    ["sqlite::memory:", ":memory:"],
  ])("%j is the SQLite file %s", (url, file) => {
    expect(parseDatabaseUrl(url, appDir)).toEqual({ kind: "sqlite", file });
  });

  it.each([
    ["postgres://u:p@127.0.0.1:5432/test", "postgres"],
    ["postgresql://localhost/test", "postgres"],
    ["POSTGRES://localhost/test", "postgres"],
    ["mysql://root@127.0.0.1:3306/test", "mysql"],
  ])("%j is %s, URL kept as given", (url, kind) => {
    expect(parseDatabaseUrl(url, appDir)).toEqual({ kind, url });
  });

  it("accepts mariadb:// as MySQL, which is the driver it needs", () => {
    expect(parseDatabaseUrl("mariadb://root@localhost/test", appDir)).toEqual({
      kind: "mysql",
      url: "mysql://root@localhost/test",
    });
  });

  it.each(["redis://localhost:6379", "mongodb://localhost/test", "http://example.test/db"])(
    "refuses %j",
    (url) => {
      expect(() => parseDatabaseUrl(url, appDir)).toThrow(TypeError);
    },
  );

  it("refuses a SQLite URL with no path", () => {
    expect(() => parseDatabaseUrl("sqlite:", appDir)).toThrow(/no SQLite file/);
  });
});

describe("describeDatabase", () => {
  it("never shows the password or query string of a server URL", () => {
    const text = describeDatabase({
      kind: "postgres",
      url: "postgres://app:s3cr%40t@db.internal:5432/auth?password=s3cr@t",
    });
    expect(text).toBe("postgres app@db.internal:5432/auth");
    expect(text).not.toContain("s3cr");
  });

  it("names a MySQL server without credentials when none are given", () => {
    expect(describeDatabase({ kind: "mysql", url: "mysql://127.0.0.1:3306/test" })).toBe(
      "mysql 127.0.0.1:3306/test",
    );
  });

  it("names the SQLite file", () => {
    expect(describeDatabase({ kind: "sqlite", file: "/srv/demo/.data/demo.db" })).toBe(
      "sqlite /srv/demo/.data/demo.db",
    );
  });
});

describe("loadConfig", () => {
  it("has the documented defaults", () => {
    expect(loadConfig({}, appDir)).toEqual({
      port: 3000,
      baseURL: "http://localhost:3000",
      secret: DEV_SECRET,
      secretFromEnv: false,
      database: { kind: "sqlite", file: "/srv/demo/.data/demo.db" },
      adminEmails: [],
    });
  });

  it("reads PORT, BASE_URL, AUTH_SECRET, DATABASE_URL and ADMIN_EMAILS", () => {
    const config = loadConfig(
      {
        PORT: "4100",
        BASE_URL: "https://auth.example.test",
        AUTH_SECRET: "x".repeat(32),
        DATABASE_URL: "postgres://localhost/test",
        ADMIN_EMAILS: "Root@Example.test, ops@example.test",
      },
      appDir,
    );
    expect(config).toEqual({
      port: 4100,
      baseURL: "https://auth.example.test",
      secret: "x".repeat(32),
      secretFromEnv: true,
      database: { kind: "postgres", url: "postgres://localhost/test" },
      adminEmails: ["root@example.test", "ops@example.test"],
    });
  });

  it("derives the base URL from PORT", () => {
    expect(loadConfig({ PORT: "8080" }, appDir).baseURL).toBe("http://localhost:8080");
  });
});

describe("parseEmailList", () => {
  it("splits on commas, trims, lower-cases and drops blanks", () => {
    expect(parseEmailList(" A@example.test,, b@example.test ")).toEqual(["a@example.test", "b@example.test"]);
    expect(parseEmailList(undefined)).toEqual([]);
  });

  it.each(["admin", "a@b@c", "a b@example.test"])("refuses %j", (text) => {
    expect(() => parseEmailList(text)).toThrow(TypeError);
  });
});

describe("parsePort", () => {
  it.each(["0", "3000", "65535"])("accepts %s", (text) => {
    expect(parsePort(text)).toBe(Number(text));
  });

  it.each(["-1", "65536", "80a", "3.5", "http"])("refuses %j", (text) => {
    expect(() => parsePort(text)).toThrow(TypeError);
  });
});

describe("parseCaptcha", () => {
  const full = {
    CAPTCHA_PROVIDER: "hcaptcha",
    CAPTCHA_SECRET_KEY: "secret",
    CAPTCHA_SITE_KEY: "site",
  };

  it("is off by default: no captcha without CAPTCHA_PROVIDER and CAPTCHA_SECRET_KEY", () => {
    expect(parseCaptcha({})).toBeUndefined();
    expect(parseCaptcha({ CAPTCHA_PROVIDER: " ", CAPTCHA_SECRET_KEY: "" })).toBeUndefined();
    expect(loadConfig({}, appDir).captcha).toBeUndefined();
  });

  it("turns on with the provider, the secret and the site key; the siteverify URL is optional", () => {
    expect(parseCaptcha(full)).toEqual({ provider: "hcaptcha", secretKey: "secret", siteKey: "site" });
    expect(
      loadConfig({ ...full, CAPTCHA_PROVIDER: "cloudflare-turnstile", CAPTCHA_SITEVERIFY_URL: "http://127.0.0.1:9/v" }, appDir)
        .captcha,
    ).toEqual({ provider: "cloudflare-turnstile", secretKey: "secret", siteKey: "site", siteVerifyURL: "http://127.0.0.1:9/v" });
  });

  it.each([
    [{ CAPTCHA_PROVIDER: "hcaptcha" }, /CAPTCHA_SECRET_KEY/],
    [{ CAPTCHA_SECRET_KEY: "secret" }, /CAPTCHA_PROVIDER/],
    [{ CAPTCHA_SITE_KEY: "site" }, /need CAPTCHA_PROVIDER/],
    [{ ...full, CAPTCHA_PROVIDER: "vercel-botid" }, /must be one of/],
    [{ ...full, CAPTCHA_SITE_KEY: undefined }, /CAPTCHA_SITE_KEY/],
    [{ ...full, CAPTCHA_SITEVERIFY_URL: "ftp://x" }, /http\(s\) URL/],
  ])("refuses half a configuration or a bad value: %j", (env, message) => {
    expect(() => parseCaptcha(env)).toThrow(message);
  });
});
