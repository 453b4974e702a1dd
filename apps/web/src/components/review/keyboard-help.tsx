"use client";
import { useEffect, useRef } from "react";

const KEYS: [string, string][] = [
  ["J / K", "next / previous proposal"],
  ["Enter", "open the focused proposal"],
  ["A", "approve (the highlighted approval), then on to the next"],
  ["E", "edit, then approve; Esc closes the editor"],
  ["R", "reject, then on to the next"],
  ["X", "select for a bulk decision"],
  ["?", "this list; Esc closes it"],
];

/** The review queue's keys, as a modal list: mounted means open, Esc or Close closes it. */
export function KeyboardHelp({ onClose }: { onClose: () => void }) {
  const dialog = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const d = dialog.current;
    if (d && !d.open) d.showModal();
    return () => d?.close();
  }, []);
  return (
    <dialog
      ref={dialog}
      className="panel stack confirm"
      aria-labelledby="keys-heading"
      data-testid="keyboard-help"
      onCancel={(e) => {
        e.preventDefault();
        onClose();
      }}
    >
      <h2 id="keys-heading">Keyboard shortcuts</h2>
      <dl className="meta">
        {KEYS.map(([key, what]) => (
          <div key={key} className="contents">
            <dt>
              <kbd>{key}</kbd>
            </dt>
            <dd>{what}</dd>
          </div>
        ))}
      </dl>
      <div className="row">
        {/* biome-ignore lint/a11y/noAutofocus: a modal's close button takes focus as it opens */}
        <button type="button" onClick={onClose} autoFocus>
          Close
        </button>
      </div>
    </dialog>
  );
}
