"use client";
import Markdown, { type Components } from "react-markdown";
import remarkGfm from "remark-gfm";
import type { TRouterOutputs } from "@/lib/trpc";

type TWorkflowFileView = NonNullable<TRouterOutputs["workflows"]["get"]["checkpoint"]>["files"][number];

// The file sits under the checkpoint's prompt (an h3): its headings move down so the page's
// outline stays in order.
const HEADINGS: Components = { h1: "h4", h2: "h5", h3: "h6", h4: "h6", h5: "h6" };
const PLUGINS = [remarkGfm];

/**
 * A file a checkpoint shows, rendered as Markdown (GitHub tables) in a bordered, scrollable box
 * captioned with its path. Raw HTML in the file is never rendered: steps and people write these
 * files, and their text must not inject markup.
 */
export function WorkflowFile({ file }: { file: TWorkflowFileView }) {
  return (
    <figure className="workflow-file">
      <figcaption>
        <code>{file.path}</code>
      </figcaption>
      {file.content === null ? (
        <p className="muted workflow-file-missing">No file was written at {file.path}.</p>
      ) : (
        // Focusable, so the box scrolls from the keyboard too.
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be reachable by keyboard
        <section className="workflow-file-body" tabIndex={0} aria-label={`File ${file.path}`}>
          <Markdown remarkPlugins={PLUGINS} components={HEADINGS} skipHtml>
            {file.content}
          </Markdown>
        </section>
      )}
    </figure>
  );
}
