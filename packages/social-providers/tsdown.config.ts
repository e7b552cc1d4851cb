import { defineConfig } from "tsdown";

export default defineConfig({
  // The bin (`latchkey-migrate-microsoft-accounts`) is its own entry: dist/migrate-microsoft-accounts.js.
  entry: { index: "src/index.ts", "migrate-microsoft-accounts": "src/bin/migrate-microsoft-accounts.ts" },
  format: "esm",
  dts: true,
  platform: "neutral",
  fixedExtension: false,
  clean: true,
});
