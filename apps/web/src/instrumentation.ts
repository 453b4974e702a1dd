// Next calls register() once when the server starts: validate the environment there, so a bad
// DATABASE_URL or SOLSERVER_MODEL fails start-up instead of the first request.
export async function register() {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { serverEnv } = await import("./env");
  try {
    serverEnv();
  } catch (error) {
    console.error((error as Error).message);
    process.exit(1);
  }
}
