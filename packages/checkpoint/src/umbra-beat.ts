// The umbra-beat workflow, the one source of its YAML: a constant, so pure code can load it
// without reading a file. examples/umbra-beat.yaml is generated from it (`pnpm
// checkpoint:examples`); test/examples.test.ts fails when the two differ.

export const UMBRA_BEAT_YAML = `# One Umbra beat: collect triggers, resolve pending proposals, let a person review the result,
# then promote and recompute stats. The host runs each run step and, after resolve_pending,
# passes variables { pending_count: n } so the review prompt shows the real count.
name: umbra-beat
description: Collect, resolve, review, promote, recompute.
variables:
  summary_file: out/umbra/beat-summary.md
  pending_count: 0
phases:
  - id: collect_triggers
    title: Collect triggers
    run: umbra.collect_triggers
  - id: resolve_pending
    title: Resolve pending proposals
    run: umbra.resolve_pending
  - id: review
    title: Review before promotion
    checkpoint:
      prompt: "Review {{pending_count}} proposals before promoting?"
      show_files:
        - "{{summary_file}}"
      options:
        - label: Continue
          on_select: { action: continue }
        - label: Repeat resolve
          on_select: { action: repeat_phase, target: resolve_pending }
        - label: Skip promotion
          with_feedback: true
          on_select: { action: skip_phases, phases: [promote] }
        - label: Abort
          on_select: { action: abort }
  - id: promote
    title: Promote approved proposals
    run: umbra.promote_approved
  - id: recompute_stats
    title: Recompute stats
    run: umbra.recompute_stats
`;
