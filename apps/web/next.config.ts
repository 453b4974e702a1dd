import type { NextConfig } from "next";

const config: NextConfig = {
  // Internal packages ship TypeScript source; Next compiles them with the app.
  transpilePackages: ["@solserver/contracts", "@solserver/control-plane", "@solserver/db"],
  // Native addon and Prisma's runtime stay as plain Node requires on the server.
  // sqlite-vec ships its SQLite extension (a .so) inside the package: loaded from disk, never bundled.
  // pg (PostgreSQL's driver) requires its optional native binding lazily: bundling it would not.
  serverExternalPackages: [
    "better-sqlite3",
    "@prisma/adapter-better-sqlite3",
    "@prisma/client",
    "sqlite-vec",
    "pg",
    "@prisma/adapter-pg",
  ],
  poweredByHeader: false,
  // The build checks the app only; tests are type-checked by `pnpm typecheck`.
  typescript: { tsconfigPath: "tsconfig.build.json" },
  reactStrictMode: true,
};

export default config;
