// The routing config as the server reads it (docs/routing.md): the contract's shape, plus what
// only the analyser can check, that every example holds a word the router can learn from (in a
// script the analyser reads: not only emoji, digits or punctuation). The
// shipped config is data (default-routing.json); SOLSERVER_ROUTING_CONFIG replaces it.
import { ZRoutingConfig } from "@solserver/contracts";
import { tokens } from "@solserver/text";
import shipped from "./default-routing.json" with { type: "json" };

/** Whether a text holds a word the router can learn from (a config example or one filed later). */
export function learnable(text: string): boolean {
  return tokens(text).some((word) => /\p{L}/u.test(word));
}

export const ZRoutingFile = ZRoutingConfig.superRefine((config, ctx) => {
  config.domains.forEach((d, i) => {
    d.examples.forEach((example, j) => {
      if (!learnable(example))
        ctx.addIssue({
          code: "custom",
          path: ["domains", i, "examples", j],
          message: "holds no word the analyser reads (only emoji, digits or punctuation, or a script it does not know)",
        });
    });
  });
});

/** The shipped routing config: the demo knowledge's domains, the RV service desk, and the rest. */
export const DEFAULT_ROUTING = ZRoutingFile.parse(shipped);
