import { latchkeyBuild } from "../../tsdown.shared.ts";

export default latchkeyBuild(["src/index.ts", "src/client.ts", "src/oauth.ts"]);
