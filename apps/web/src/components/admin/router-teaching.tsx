"use client";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { useTRPC } from "@/lib/trpc";
import { DataTable } from "../ui/data-table";
import { formatTs } from "../ui/format";
import { QueryState } from "../ui/query-state";
import { ErrorAlert } from "../ui/ui";

const SOURCE_TEXT = {
  proposal_domain: "a reviewer moved its proposal",
  suggestion: "a routing suggestion",
  manual: "added here",
} as const;

/**
 * Jam editors: the router's domains, its threshold and fallback, and the messages filed under a
 * domain since the routing config was written (docs/routing.md#learning-from-corrections). Every
 * server process learns an example added or removed here within seconds.
 */
export function RouterTeaching() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const overview = useQuery(trpc.routing.overview.queryOptions());
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.routing.overview.queryKey() });
  const [text, setText] = useState("");
  const [domain, setDomain] = useState("");
  const add = useMutation(
    trpc.routing.add.mutationOptions({
      onSuccess: () => {
        setText("");
        return refresh();
      },
    }),
  );
  const remove = useMutation(trpc.routing.remove.mutationOptions({ onSuccess: refresh }));
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const chosen = domain || overview.data?.domains[0]?.id;
    if (chosen && text.trim()) add.mutate({ domain: chosen, text });
  };
  return (
    <section className="panel stack" aria-labelledby="routing-heading">
      <h1 id="routing-heading" className="page-title">
        Routing
      </h1>
      <QueryState query={overview} what="the router">
        {(o) => (
          <div className="stack">
            <p className="muted">
              Each turn goes to the domain the classifier finds most likely, when it is at least{" "}
              <strong>{Math.round(o.min_confidence * 100)} %</strong> sure; otherwise the turn is unrouted: it keeps its
              thread&apos;s domain, or goes to <strong>{o.fallback_domain}</strong>.{" "}
              {o.meaning
                ? "The sentence model's nearest examples vote too."
                : "Words only: the sentence model is off or still embedding the examples."}
            </p>
            <DataTable
              headers={["domain", "examples in the config", "learned", "claims", "retrieval", "always routed here"]}
              label="Domains"
            >
              <tbody>
                {o.domains.map((d) => (
                  <tr key={d.id}>
                    <td>
                      {d.label} <span className="muted">({d.id})</span>
                    </td>
                    <td>{d.config_examples}</td>
                    <td>{d.learned_examples}</td>
                    <td>{d.strict ? "strict" : "warnings"}</td>
                    <td>{d.scope === "domain" ? "this domain only" : "this domain first"}</td>
                    <td>{d.always.length > 0 ? d.always.join(", ") : "—"}</td>
                  </tr>
                ))}
              </tbody>
            </DataTable>
            <form className="row" onSubmit={submit} aria-label="Teach the router">
              <label>
                Message{" "}
                <input
                  value={text}
                  onChange={(e) => setText(e.target.value)}
                  maxLength={1000}
                  placeholder="a message as people type it"
                  required
                />
              </label>
              <label>
                belongs to{" "}
                <select value={domain || o.domains[0]?.id} onChange={(e) => setDomain(e.target.value)}>
                  {o.domains.map((d) => (
                    <option key={d.id} value={d.id}>
                      {d.label}
                    </option>
                  ))}
                </select>
              </label>
              <button type="submit" disabled={add.isPending}>
                File it
              </button>
            </form>
            <ErrorAlert what="Could not file the message" error={add.error} />
            <h2>Learned since the config ({o.learned.length})</h2>
            {o.learned.length === 0 ? (
              <p className="muted">
                Nothing yet. A reviewer who moves a proposal to another domain, or a routing suggestion filed from the
                review queue, adds its message here.
              </p>
            ) : (
              <DataTable headers={["message", "domain", "from", "filed", ""]} label="Learned examples">
                <tbody>
                  {o.learned.map((e) => (
                    <tr key={e.id}>
                      <td>{e.text}</td>
                      <td>{e.domain}</td>
                      <td>
                        {SOURCE_TEXT[e.source]}
                        {e.source_ref ? <span className="muted"> ({e.source_ref})</span> : null}
                      </td>
                      <td>{formatTs(e.created_ts)}</td>
                      <td>
                        <button
                          type="button"
                          disabled={remove.isPending}
                          onClick={() => remove.mutate({ id: e.id })}
                          aria-label={`Remove "${e.text}"`}
                        >
                          Remove
                        </button>
                      </td>
                    </tr>
                  ))}
                </tbody>
              </DataTable>
            )}
            <ErrorAlert what="Could not remove the example" error={remove.error} />
          </div>
        )}
      </QueryState>
    </section>
  );
}
