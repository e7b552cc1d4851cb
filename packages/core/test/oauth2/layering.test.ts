import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const SRC = resolve(dirname(fileURLToPath(import.meta.url)), "../../src");

// Every `import`/`export … from` and dynamic `import("…")`, type-only ones included: a type
// import from routes/ is a layering breach as much as a value import.
const SPECIFIER = /(?:^(?:import|export)\s[^;]*?\sfrom\s*|import\(\s*)"(\.[^"]+)"/gms;

/** Source files (relative to src/) a file imports directly. */
function localImports(file: string): string[] {
  const text = readFileSync(resolve(SRC, file), "utf8");
  return [...text.matchAll(SPECIFIER)].map(([, spec = ""]) =>
    relative(SRC, resolve(dirname(resolve(SRC, file)), spec.replace(/\.js$/, ".ts"))),
  );
}

const oauth2Files = (): string[] =>
  readdirSync(resolve(SRC, "oauth2"), { recursive: true, encoding: "utf8" })
    .filter((name) => name.endsWith(".ts"))
    .map((name) => join("oauth2", name));

/** The first import chain from `entry` into routes/, or null. */
function pathIntoRoutes(entry: string): string[] | null {
  const parent = new Map<string, string>();
  const queue = [entry];
  for (let file = queue.shift(); file; file = queue.shift()) {
    for (const target of localImports(file)) {
      if (parent.has(target) || target === entry) continue;
      parent.set(target, file);
      if (target.startsWith("routes/")) {
        const chain = [target];
        for (let at = file; at !== entry; at = parent.get(at)!) chain.unshift(at);
        return [entry, ...chain];
      }
      queue.push(target);
    }
  }
  return null;
}

describe("layering: oauth2/ never depends on routes/", () => {
  it("the scanner finds the oauth2 files and their imports (guards against a scanner that sees nothing)", () => {
    const files = oauth2Files();
    expect(files).toContain("oauth2/callback-errors.ts");
    expect(localImports("oauth2/callback-errors.ts")).toContain("security/redirect-url.ts");
    // And it does see an import into routes/ where one exists.
    expect(pathIntoRoutes("auth/core-endpoints.ts")?.at(-1)).toMatch(/^routes\//);
  });

  it("no file under oauth2/ imports from routes/, directly or through another module", () => {
    const breaches = oauth2Files()
      .map((file) => pathIntoRoutes(file))
      .filter((chain): chain is string[] => chain !== null)
      .map((chain) => chain.join(" -> "));
    expect(breaches).toEqual([]);
  });
});
