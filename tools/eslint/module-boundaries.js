// Enforces the Nx tag layering (core < adapter|lib < plugin < app) on bare-specifier imports of
// workspace packages. Tags live in each package.json under "nx.tags".
import { readFileSync, readdirSync, existsSync } from "node:fs";
import { dirname, join, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
// "type:lib": shared libraries plugins build on (@latchkey/access), a layer below plugins.
const rank = { "type:core": 0, "type:adapter": 1, "type:lib": 1, "type:plugin": 2, "type:app": 3, "type:test": 3 };

function loadProjects() {
  const projects = [];
  for (const group of ["packages", "apps", "tools"]) {
    const dir = join(root, group);
    if (!existsSync(dir)) continue;
    for (const name of readdirSync(dir)) {
      const file = join(dir, name, "package.json");
      if (!existsSync(file)) continue;
      const pkg = JSON.parse(readFileSync(file, "utf8"));
      const tag = (pkg.nx?.tags ?? []).find((t) => t in rank);
      // Subpaths the package declares in "exports" are public entries too (e.g. "./sqlite").
      const entries = Object.keys(pkg.exports ?? {}).filter((key) => key.startsWith("./"));
      projects.push({ name: pkg.name, dir: join(dir, name) + sep, tag, entries });
    }
  }
  return projects;
}

const projects = loadProjects();

/** @type {import("eslint").Rule.RuleModule} */
export const moduleBoundaries = {
  meta: { type: "problem", schema: [], messages: {
    layer: "{{from}} ({{fromTag}}) may not import {{to}} ({{toTag}}): layers go core < adapter < plugin < app.",
    deep: "Import {{to}} through its public entry, not a deep path.",
  } },
  create(context) {
    const self = projects.find((p) => context.filename.startsWith(p.dir));
    if (!self) return {};
    const check = (node) => {
      const spec = node.source?.value;
      if (typeof spec !== "string") return;
      const target = projects.find((p) => spec === p.name || spec.startsWith(p.name + "/"));
      if (!target || target === self) return;
      const declared = target.entries.includes(`.${spec.slice(target.name.length)}`);
      if (spec !== target.name && !declared && !spec.endsWith("/client")) {
        context.report({ node, messageId: "deep", data: { to: spec } });
      }
      // Test code may use the test-layer packages (the adapter conformance suite).
      if (target.tag === "type:test" && /[\\/]test[\\/]/.test(context.filename.slice(self.dir.length - 1))) return;
      const from = rank[self.tag] ?? 3;
      const to = rank[target.tag] ?? 3;
      const samePluginLayer = self.tag === "type:plugin" && target.tag === "type:plugin";
      if (to > from || (to === from && !samePluginLayer && from < 3)) {
        context.report({ node, messageId: "layer", data: { from: self.name, fromTag: self.tag, to: target.name, toTag: target.tag } });
      }
    };
    return { ImportDeclaration: check, ExportNamedDeclaration: check, ExportAllDeclaration: check, ImportExpression: check };
  },
};
