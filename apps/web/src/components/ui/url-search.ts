"use client";
import { useEffect, useState } from "react";

/**
 * A list's search box kept in the URL (?q=…): a reload or a shared link shows the same list.
 * Read after mounting (the page is prerendered without the query); written without a history
 * entry per keystroke.
 */
export function useUrlSearch(): [string, (value: string) => void] {
  const [search, setSearch] = useState("");
  useEffect(() => {
    setSearch(new URLSearchParams(window.location.search).get("q") ?? "");
  }, []);
  const change = (value: string) => {
    setSearch(value);
    const url = new URL(window.location.href);
    if (value.trim()) url.searchParams.set("q", value);
    else url.searchParams.delete("q");
    window.history.replaceState(window.history.state, "", url);
  };
  return [search, change];
}
