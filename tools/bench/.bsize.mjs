import { build } from "esbuild";
import { gzipSync } from "node:zlib";
const entry = process.argv[2];
const r = await build({ entryPoints: [entry], absWorkingDir: process.cwd(), bundle: true, write: false, metafile: true, format: "esm", platform: "neutral", target: "es2022", mainFields: ["browser","module","main"], conditions: ["workerd","worker","browser","@latchkey/source"], external: ["node:*","cloudflare:*", ...(process.argv[3]?process.argv[3].split(","):[])], define: {"process.env.NODE_ENV":'"production"'}, legalComments:"none", logLevel:"error", minify: true });
const code = r.outputFiles[0].contents;
console.log("min", (code.length/1024).toFixed(1), "gz", (gzipSync(code,{level:9}).length/1024).toFixed(1));
const rows = [];
for (const o of Object.values(r.metafile.outputs)) for (const [p, i] of Object.entries(o.inputs)) rows.push([i.bytesInOutput, p]);
rows.sort((a,b)=>b[0]-a[0]);
const by = new Map();
for (const [b,p] of rows) { const k = p.includes("node_modules") ? p.match(/node_modules\/((?:@[^/]+\/)?[^/]+)/g).pop() : p.replace(/^(\.\.\/)+/,"").split("/").slice(0,Number(process.env.DEPTH??4)).join("/"); by.set(k,(by.get(k)??0)+b); }
for (const [k,b] of [...by].sort((a,b)=>b[1]-a[1]).slice(0, Number(process.argv[4]??40))) console.log((b/1024).toFixed(1).padStart(7), k);
