import { readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

/** A Latchkey plugin package found in packages/, and the factory that makes its plugin. */
export interface DiscoveredPlugin {
  /** The plugin's `id`, as its factory returned it. */
  id: string;
  packageName: string;
  /** Absolute path of the package's source entry (its `@latchkey/source` export). */
  entry: string;
  /** The factory's export name: the package name in camelCase, any letter case (`oauth-proxy` → `oAuthProxy`). */
  factory: string;
}

/** Every plugin the bench installs in its "every plugin" servers and bundles, and what it left out. */
export interface PluginDiscovery {
  plugins: DiscoveredPlugin[];
  /** Packages tagged `type:plugin` that yield no server plugin, with the reason. */
  skipped: Array<{ packageName: string; reason: string }>;
  /** Discovered plugins the reference has no counterpart for in REFERENCE_PLUGINS. */
  unmapped: string[];
}

/**
 * The reference's counterpart of each Latchkey plugin id, for the reference's "same plugins"
 * server and bundle. When a plugin package is added to packages/, add its reference factory
 * here; until then the report lists it as unmapped (the reference side then runs without it).
 */
export const REFERENCE_PLUGINS: Record<string, { from: string; factory: string }> = {
  admin: { from: "better-auth/plugins", factory: "admin" },
  anonymous: { from: "better-auth/plugins", factory: "anonymous" },
  "api-key": { from: "@better-auth/api-key", factory: "apiKey" },
  bearer: { from: "better-auth/plugins", factory: "bearer" },
  "generic-oauth": { from: "better-auth/plugins", factory: "genericOAuth" },
  "have-i-been-pwned": { from: "better-auth/plugins", factory: "haveIBeenPwned" },
  jwt: { from: "better-auth/plugins", factory: "jwt" },
  "last-login-method": { from: "better-auth/plugins", factory: "lastLoginMethod" },
  "multi-session": { from: "better-auth/plugins", factory: "multiSession" },
  "oauth-proxy": { from: "better-auth/plugins", factory: "oAuthProxy" },
  "one-tap": { from: "better-auth/plugins", factory: "oneTap" },
  "oauth-provider": { from: "@better-auth/oauth-provider", factory: "oauthProvider" },
  "one-time-token": { from: "better-auth/plugins", factory: "oneTimeToken" },
  organization: { from: "better-auth/plugins", factory: "organization" },
  "phone-number": { from: "better-auth/plugins", factory: "phoneNumber" },
  "two-factor": { from: "better-auth/plugins", factory: "twoFactor" },
  username: { from: "better-auth/plugins", factory: "username" },
};

/**
 * Options passed to a factory that refuses to be called without any (both implementations get
 * the same, and options that keep a figure about what it measures). Generic OAuth needs its
 * provider list; an empty one installs the plugin as is.
 */
export const FACTORY_OPTIONS: Record<string, unknown> = {
  genericOAuth: { config: [] },
  // The JWT header on every get-session is a signature per request by design, on both sides; the
  // every-plugin figure measures routing and hooks, so it is left off there.
  jwt: { disableSettingJwtHeader: true },
  // Sessions from `x-api-key` for the get-session figure with a key. Every request is counted
  // exactly (the per-key rate limit's counter, one guarded write per request on both sides);
  // the maximum is out of the load's reach so no request is refused.
  apiKey: { enableSessionForAPIKeys: true, rateLimit: { enabled: true, maxRequests: 1_000_000_000 } },
  // The two pages the provider sends browsers to; the bench's flows follow them without a page.
  oauthProvider: { loginPage: "/login", consentPage: "/consent" },
};

const repoRoot = fileURLToPath(new URL("../../../", import.meta.url));

const camelCase = (name: string): string => name.replace(/-([a-z0-9])/g, (_, c: string) => c.toUpperCase());

/**
 * Finds the plugin packages: every packages/* whose nx tags hold `type:plugin` and whose
 * entry exports a factory named after the package that returns an object with an `id`.
 * Nothing is listed by hand, so a new plugin package joins the "every plugin" figures at once.
 */
export async function discoverPlugins(root = repoRoot): Promise<PluginDiscovery> {
  const discovery: PluginDiscovery = { plugins: [], skipped: [], unmapped: [] };
  const packagesDir = join(root, "packages");
  for (const dir of readdirSync(packagesDir).sort()) {
    let pkg: PackageJson;
    try {
      pkg = JSON.parse(readFileSync(join(packagesDir, dir, "package.json"), "utf8")) as PackageJson;
    } catch {
      continue;
    }
    if (!pkg.nx?.tags?.includes("type:plugin")) continue;
    const source = pkg.exports?.["."]?.["@latchkey/source"];
    if (!source) {
      discovery.skipped.push({ packageName: pkg.name, reason: "no @latchkey/source entry" });
      continue;
    }
    const entry = resolve(packagesDir, dir, source);
    const factory = camelCase(pkg.name.replace(/^@latchkey\//, ""));
    const found = await callFactory(entry, factory);
    if (typeof found === "string") discovery.skipped.push({ packageName: pkg.name, reason: found });
    else discovery.plugins.push({ id: found.id, packageName: pkg.name, entry, factory: found.factory });
  }
  discovery.unmapped = discovery.plugins.map((p) => p.id).filter((id) => !(id in REFERENCE_PLUGINS));
  return discovery;
}

interface PackageJson {
  name: string;
  nx?: { tags?: string[] };
  exports?: Record<string, Record<string, string> | undefined>;
}

/** The plugin the factory returns, or why there is none. */
async function callFactory(
  entry: string,
  factory: string,
): Promise<{ id: string; factory: string } | string> {
  let module: Record<string, unknown>;
  try {
    module = (await import(pathToFileURL(entry).href)) as Record<string, unknown>;
  } catch (error) {
    // A package scaffolded but not written yet (no entry file) must not stop the bench.
    return `entry does not load (${(error as Error).message.split("\n")[0]})`;
  }
  // Names keep the spelling of the thing they make (`genericOAuth`, `oAuthProxy`), so the
  // package name matches them without regard to letter case.
  const name = Object.keys(module).find(
    (key) => key.toLowerCase() === factory.toLowerCase() && typeof module[key] === "function",
  );
  const make = name === undefined ? undefined : module[name];
  if (name === undefined || typeof make !== "function")
    return `exports no \`${factory}()\` factory (not a server plugin)`;
  try {
    const plugin = (make as (options?: unknown) => unknown)(FACTORY_OPTIONS[name]);
    const id = (plugin as { id?: unknown } | null)?.id;
    return typeof id === "string" ? { id, factory: name } : `\`${name}()\` returned no plugin id`;
  } catch (error) {
    return `\`${name}()\` needs options (${(error as Error).message}); add them to FACTORY_OPTIONS`;
  }
}

/** Source of the `bench:*` modules the server and bundle builds import (see virtual-modules.d.ts). */
export function virtualModules(discovery: PluginDiscovery): Record<string, string> {
  const latchkey = discovery.plugins;
  const reference = latchkey.flatMap((p) => {
    const counterpart = REFERENCE_PLUGINS[p.id];
    // The reference's factory gets the options its Latchkey counterpart gets.
    return counterpart ? [{ id: p.id, ...counterpart, optionsOf: p.factory }] : [];
  });
  const options = (factory: string): string => JSON.stringify(FACTORY_OPTIONS[factory] ?? undefined) ?? "";
  const chosen = (id: string, factory: string): string =>
    `(${JSON.stringify(id)} in overrides ? overrides[${JSON.stringify(id)}] : ${options(factory) || "undefined"})`;
  const lazy = (cases: string[]): string =>
    [
      // `overrides[id]`, when given, replaces the factory's FACTORY_OPTIONS (a scenario's own setup).
      "export async function loadPlugins(ids, overrides = {}) {",
      "  const plugins = [];",
      "  for (const id of ids) {",
      "    switch (id) {",
      ...cases,
      '      default: throw new Error(`bench: no plugin "${id}"`);',
      "    }",
      "  }",
      "  return plugins;",
      "}",
    ].join("\n");
  return {
    "bench:latchkey-plugins": lazy(
      latchkey.map(
        (p) =>
          `      case ${JSON.stringify(p.id)}: plugins.push((await import(${JSON.stringify(p.entry)})).${p.factory}(${chosen(p.id, p.factory)})); break;`,
      ),
    ),
    "bench:reference-plugins": lazy(
      reference.map(
        (p) =>
          `      case ${JSON.stringify(p.id)}: plugins.push((await import(${JSON.stringify(p.from)})).${p.factory}(${chosen(p.id, p.optionsOf)})); break;`,
      ),
    ),
    "bench:latchkey-all-plugins": [
      ...latchkey.map((p, i) => `import { ${p.factory} as plugin${i} } from ${JSON.stringify(p.entry)};`),
      `export function allPlugins() { return [${latchkey.map((p, i) => `plugin${i}(${options(p.factory)})`).join(", ")}]; }`,
    ].join("\n"),
    "bench:reference-all-plugins": [
      ...reference.map((p, i) => `import { ${p.factory} as plugin${i} } from ${JSON.stringify(p.from)};`),
      `export function allPlugins() { return [${reference.map((p, i) => `plugin${i}(${options(p.optionsOf)})`).join(", ")}]; }`,
    ].join("\n"),
  };
}
