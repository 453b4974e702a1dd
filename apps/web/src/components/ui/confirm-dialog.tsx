"use client";
import { type ReactNode, useEffect, useId, useRef } from "react";

/**
 * A modal confirmation for a costly action (retire, merge, revert): mounted means open. Escape
 * and Cancel call `onCancel` (not while the action runs); focus starts on Cancel, so a stray
 * Enter does not confirm. `children` say what will happen; `alert` is the failure, if any.
 */
export function ConfirmDialog({
  title,
  children,
  confirmLabel,
  pending,
  alert,
  onConfirm,
  onCancel,
}: {
  title: string;
  children: ReactNode;
  confirmLabel: string;
  pending: boolean;
  alert?: ReactNode;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  const cancel = useRef<HTMLButtonElement>(null);
  const headingId = useId();
  useEffect(() => {
    const d = dialog.current;
    if (d && !d.open) d.showModal();
    cancel.current?.focus();
    return () => d?.close();
  }, []);
  return (
    <dialog
      ref={dialog}
      className="panel stack confirm"
      aria-labelledby={headingId}
      onCancel={(e) => {
        e.preventDefault();
        if (!pending) onCancel();
      }}
    >
      <h2 id={headingId}>{title}</h2>
      {children}
      {alert}
      <div className="row">
        <button ref={cancel} type="button" onClick={onCancel} disabled={pending}>
          Cancel
        </button>
        <button type="button" className="primary" onClick={onConfirm} disabled={pending}>
          {pending ? "Working…" : confirmLabel}
        </button>
      </div>
    </dialog>
  );
}
