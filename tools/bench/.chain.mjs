import { build } from "esbuild";
const [entry, target] = process.argv.slice(2);
const r = await build({ entryPoints: [entry], bundle: true, write: false, metafile: true, format: "esm", platform: "neutral", mainFields: ["browser","module","main"], conditions: ["workerd","worker","browser","@latchkey/source"], external: ["node:*","cloudflare:*","kysely"], logLevel: "error" });
const inputs = r.metafile.inputs;
const importers = new Map();
for (const [p, i] of Object.entries(inputs)) for (const im of i.imports) { if (!importers.has(im.path)) importers.set(im.path, []); importers.get(im.path).push(p); }
for (const p of Object.keys(inputs).filter(p => p.includes(target))) {
  // print importers chain (first-level importers outside target)
  const outs = (importers.get(p) ?? []).filter(q => !q.includes(target));
  if (outs.length) console.log(p.replace(/.*node_modules\//,""), "<=", outs.map(q=>q.replace(/^(\.\.\/)+/,"")).join(", "));
}
