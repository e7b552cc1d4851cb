import { readFileSync } from "node:fs";
import { dirname, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const SRC = resolve(dirname(fileURLToPath(import.meta.url)), "../../src");

// `import`/`export … from` declarations; type-only ones are erased and never load anything.
const DECLARATION = /^(?:import|export)\s+(type\s+)?([^;]*?)\s*from\s*"([^"]+)";/gms;

function valueImports(file: string): string[] {
  const found: string[] = [];
  for (const [, typeOnly, clause = "", specifier = ""] of readFileSync(file, "utf8").matchAll(DECLARATION)) {
    if (typeOnly) continue;
    const names = /^\{([^}]*)\}$/s
      .exec(clause.trim())?.[1]
      ?.split(",")
      .map((n) => n.trim())
      .filter(Boolean);
    if (names?.length && names.every((n) => n.startsWith("type "))) continue;
    found.push(
      specifier.startsWith(".") ? resolve(dirname(file), specifier.replace(/\.js$/, ".ts")) : specifier,
    );
  }
  return found;
}

/** Every module (source file or package) loaded, transitively, when `entry` is loaded. */
function reachable(entry: string): Set<string> {
  const seen = new Set<string>();
  const queue = [resolve(SRC, entry)];
  for (let file = queue.shift(); file; file = queue.shift()) {
    for (const target of valueImports(file)) {
      if (seen.has(target)) continue;
      seen.add(target);
      if (target.startsWith("/")) queue.push(target);
    }
  }
  return new Set([...seen].map((path) => (path.startsWith("/") ? relative(SRC, path) : path)));
}

// What an application without providers must not load: the point of `OAuthProvider.flow`.
const FLOW_ONLY = [
  "jose",
  "@noble/ciphers/chacha.js",
  "oauth2/flow.ts",
  "oauth2/id-token.ts",
  "oauth2/token-storage.ts",
  "oauth2/sign-in-user.ts",
  "oauth2/link-account.ts",
  "oauth2/callback-steps.ts",
  "crypto/symmetric.ts",
];

describe("OAuth flow isolation (module graph)", () => {
  it("createAuth and its routes never load the OAuth flow, jose or XChaCha20", () => {
    const loaded = reachable("auth/create-auth.ts");
    // The scanner sees the social routes and what they keep (guards against a scanner that finds nothing).
    expect(loaded).toContain("routes/sign-in-social.ts");
    expect(loaded).toContain("oauth2/state.ts");
    for (const module of FLOW_ONLY) expect(loaded).not.toContain(module);
  });

  it("core's provider builder brings the flow along", () => {
    const loaded = reachable("oauth2/oidc-provider.ts");
    expect(loaded).toContain("oauth2/flow.ts");
    expect(loaded).toContain("jose");
    expect(loaded).toContain("@noble/ciphers/chacha.js");
  });
});
