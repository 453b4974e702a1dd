/**
 * Shown at once while a page of the dashboard is on its way (Next's loading boundary): a thin bar
 * at the top that moves, so a slow navigation never looks like a dead click.
 */
export default function Loading() {
  return (
    <div className="nav-progress" role="progressbar" aria-label="Loading the page" data-testid="nav-progress">
      <span />
    </div>
  );
}
