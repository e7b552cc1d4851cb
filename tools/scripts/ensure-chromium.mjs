// The demo's end-to-end test drives Debian's Chromium; install it when it is missing.
import { execSync } from "node:child_process";
import { existsSync } from "node:fs";

if (!existsSync("/usr/bin/chromium")) {
  console.log("[latchkey] installing Debian chromium for the end-to-end test");
  try {
    execSync("apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium", { stdio: "inherit" });
  } catch (e) {
    console.error(`[latchkey] could not install chromium: ${e.message}`);
    process.exit(1);
  }
}
