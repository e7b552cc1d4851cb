// The slice of Bun's built-in module the Bun launcher uses (bun-types is not installed).
declare module "bun:sqlite" {
  export class Database {
    constructor(filename: string);
    close(): void;
  }
}
