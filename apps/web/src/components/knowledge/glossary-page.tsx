import { ACTION_WORDS } from "../admin/audit-words";
import { DECISION_WORDS } from "../review/queue-filters";
import { HELD_WORDS, OP_WORDS, REASON_WORDS, TRUST_WORDS } from "./glossary";

/** One table of stored codes and what they mean, from the same maps the pages use. */
function Terms({ title, id, words }: { title: string; id: string; words: Record<string, string> }) {
  return (
    <section className="stack" aria-labelledby={id}>
      <h2 id={id}>{title}</h2>
      <dl className="meta">
        {Object.entries(words).map(([code, meaning]) => (
          <div key={code} className="contents">
            <dt>
              <code>{code}</code>
            </dt>
            <dd>{meaning}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}

/**
 * The glossary: every code the dashboard shows in words, with the code itself (what the API,
 * the CLI and exports carry), so a reviewer can read either.
 */
export function Glossary() {
  return (
    <div className="panel stack">
      <h1 className="page-title">Glossary</h1>
      <p className="muted">The dashboard says these in words; the API, exports and the command line use the codes.</p>
      <Terms title="Resolve's verdicts" id="g-verdicts" words={DECISION_WORDS} />
      <Terms title="What the model proposed" id="g-ops" words={OP_WORDS} />
      <Terms title="Why resolve decided so" id="g-reasons" words={REASON_WORDS} />
      <Terms title="Why an approval waits for a look" id="g-held" words={HELD_WORDS} />
      <Terms title="Trust tiers of knowledge" id="g-trust" words={TRUST_WORDS} />
      <Terms title="Audit log actions" id="g-actions" words={ACTION_WORDS} />
    </div>
  );
}
