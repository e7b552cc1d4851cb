import { latchkeyBuild } from "../../tsdown.shared.ts";

export default latchkeyBuild(["src/index.ts", "src/sqlite.ts", "src/postgres.ts", "src/mysql.ts"]);
