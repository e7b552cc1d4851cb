import { defineConfig } from "tsdown";

export default defineConfig({
  entry: ["src/index.ts", "src/sqlite.ts", "src/postgres.ts", "src/mysql.ts"],
  format: "esm",
  dts: true,
  platform: "neutral",
  fixedExtension: false,
  clean: true,
});
