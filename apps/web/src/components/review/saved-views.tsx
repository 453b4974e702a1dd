"use client";
import Link from "next/link";
import { type FormEvent, useEffect, useState } from "react";

/** Where this browser keeps its saved queue views (name → query string). */
const KEY = "solserver-saved-views";
const MAX_VIEWS = 12;

type TView = { name: string; query: string };

function load(): TView[] {
  try {
    const parsed: unknown = JSON.parse(window.localStorage.getItem(KEY) ?? "[]");
    return Array.isArray(parsed)
      ? parsed
          .filter((v): v is TView => typeof v?.name === "string" && typeof v?.query === "string")
          .slice(0, MAX_VIEWS)
      : [];
  } catch {
    return [];
  }
}

/**
 * Saved views of the queue: the current filters and sort under a name, kept in this browser, one
 * click away. The URL is the view, so a saved view is also a link to share.
 */
export function SavedViews({ query }: { query: string }) {
  const [views, setViews] = useState<TView[]>([]);
  const [name, setName] = useState("");
  useEffect(() => setViews(load()), []);
  const store = (next: TView[]) => {
    setViews(next);
    window.localStorage.setItem(KEY, JSON.stringify(next));
  };
  function save(event: FormEvent) {
    event.preventDefault();
    const trimmed = name.trim().slice(0, 40);
    if (!trimmed) return;
    store([{ name: trimmed, query }, ...views.filter((v) => v.name !== trimmed)].slice(0, MAX_VIEWS));
    setName("");
  }
  return (
    <div className="row wrap saved-views" data-testid="saved-views">
      {views.map((v) => (
        <span key={v.name} className="row">
          <Link href={`/review${v.query}`} aria-current={v.query === query ? "true" : undefined}>
            {v.name}
          </Link>
          <button
            type="button"
            className="link-button"
            aria-label={`Forget the view ${v.name}`}
            onClick={() => store(views.filter((x) => x.name !== v.name))}
          >
            ×
          </button>
        </span>
      ))}
      <form className="row" onSubmit={save}>
        <label className="row">
          <span className="muted">Save this view as</span>
          <input type="text" className="inline" value={name} maxLength={40} onChange={(e) => setName(e.target.value)} />
        </label>
        <button type="submit" disabled={!name.trim()}>
          Save
        </button>
      </form>
    </div>
  );
}
