/** A barrier for races in tests: each caller waits until `parties` callers have arrived. */
export function barrier(parties: number): () => Promise<void> {
  let arrived = 0;
  let release: () => void = () => {};
  const open = new Promise<void>((resolve) => {
    release = resolve;
  });
  return () => {
    arrived++;
    if (arrived === parties) release();
    return open;
  };
}
