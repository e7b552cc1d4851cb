import { latchkeyBuild } from "../../tsdown.shared.ts";

// The bin (`latchkey-migrate-microsoft-accounts`) is its own entry: dist/migrate-microsoft-accounts.js.
export default latchkeyBuild({
  index: "src/index.ts",
  "migrate-microsoft-accounts": "src/bin/migrate-microsoft-accounts.ts",
});
