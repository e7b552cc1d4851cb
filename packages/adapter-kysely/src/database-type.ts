/** SQL dialects the adapter speaks. */
export type DatabaseType = "sqlite" | "postgres" | "mysql";
