import { latchkeyProject } from "../../vitest.shared.ts";

export default latchkeyProject("scale-out-tests", {
  // Starts the two-node clusters once for every test file (see test/support/clusters.ts).
  globalSetup: ["test/support/global-setup.ts"],
});
