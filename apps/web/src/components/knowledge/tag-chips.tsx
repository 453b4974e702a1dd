"use client";
import { type KeyboardEvent, useState } from "react";
import { splitTags } from "../review/proposal-editor";

/**
 * Tags as chips: the CFB's current tags (click one to drop it, again to keep it) and the tags to
 * add (typed, then Enter or a comma; × takes one back). The editor's state stays two comma lists
 * (`add`, `remove`), so its checks and overrides are unchanged.
 */
export function TagChips({
  current,
  add,
  remove,
  onChange,
}: {
  current: readonly string[];
  add: string;
  remove: string;
  onChange: (next: { add: string; remove: string }) => void;
}) {
  const [typing, setTyping] = useState("");
  const added = splitTags(add);
  const removed = new Set(splitTags(remove));
  const setAdded = (tags: string[], rest = "") => {
    setTyping(rest);
    // What is still being typed counts too: a Save with text in the box adds it.
    onChange({ add: [...tags, ...(rest.trim() ? [rest.trim()] : [])].join(", "), remove });
  };
  function typed(value: string) {
    const parts = value.split(",");
    const rest = parts.pop() ?? "";
    setAdded([...new Set([...added.filter((t) => t !== typing.trim()), ...splitTags(parts.join(","))])], rest);
  }
  function onKey(event: KeyboardEvent<HTMLInputElement>) {
    if (event.key === "Enter" && typing.trim()) {
      event.preventDefault();
      setAdded([...new Set([...added.filter((t) => t !== typing.trim()), typing.trim()])]);
    } else if (event.key === "Backspace" && typing === "" && added.length > 0) {
      setAdded(added.slice(0, -1));
    }
  }
  const toggle = (tag: string) => {
    const next = new Set(removed);
    if (next.has(tag)) next.delete(tag);
    else next.add(tag);
    onChange({ add, remove: [...next].join(", ") });
  };
  const committed = added.filter((t) => t !== typing.trim());
  return (
    <fieldset className="tag-chips">
      <legend>Tags</legend>
      <ul className="plain chips" aria-label="Current tags">
        {current.length === 0 ? <li className="muted">no tags yet</li> : null}
        {current.map((tag) => (
          <li key={tag}>
            <button
              type="button"
              className={`chip${removed.has(tag) ? " removed" : ""}`}
              aria-pressed={removed.has(tag)}
              aria-label={removed.has(tag) ? `Keep tag ${tag}` : `Remove tag ${tag}`}
              onClick={() => toggle(tag)}
            >
              {tag} <span aria-hidden="true">{removed.has(tag) ? "↺" : "×"}</span>
            </button>
          </li>
        ))}
        {committed.map((tag) => (
          <li key={`+${tag}`}>
            <button
              type="button"
              className="chip added"
              aria-label={`Do not add tag ${tag}`}
              onClick={() =>
                setAdded(
                  committed.filter((t) => t !== tag),
                  typing,
                )
              }
            >
              + {tag} <span aria-hidden="true">×</span>
            </button>
          </li>
        ))}
      </ul>
      <label className="field">
        <span>Tags to add (Enter or a comma after each)</span>
        <input type="text" value={typing} onChange={(e) => typed(e.target.value)} onKeyDown={onKey} />
      </label>
    </fieldset>
  );
}
