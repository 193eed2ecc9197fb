#!/usr/bin/env bash
# The docops Action's one step (action.yml): runs the command its inputs name. Kept in a file so it is tested
# (test/github/action.test.ts) exactly as GitHub runs it. Inputs arrive as DOCOPS_* variables; outputs go to
# $GITHUB_OUTPUT. DOCOPS_BIN (tests) overrides how docops is started.
set -uo pipefail

docops() {
  if [ -n "${DOCOPS_BIN:-}" ]; then $DOCOPS_BIN "$@"; else node "$GITHUB_ACTION_PATH/dist/cli/main.js" "$@"; fi
}
output() { if [ -n "${GITHUB_OUTPUT:-}" ]; then echo "$1=$2" >> "$GITHUB_OUTPUT"; fi; }

manifests="${DOCOPS_MANIFESTS_DIR:-manifests}"
plan_file="${DOCOPS_PLAN_FILE:-docops-plan.json}"
read -r -a extra <<< "${DOCOPS_ARGS:-}"

case "${DOCOPS_COMMAND:-}" in
  validate)
    # Offline: no token needed. Every problem is an ::error annotation at file:line (GITHUB_ACTIONS=true).
    unset DOCOPS_TOKEN
    docops validate -m "$manifests" "${extra[@]}"
    code=$?
    ;;
  plan)
    # A read-only token is enough. The markdown plan also goes to the job summary; the plan is saved for apply.
    md="${RUNNER_TEMP:-/tmp}/docops-plan.md"
    docops plan -m "$manifests" --format markdown --detailed-exitcode --out "$plan_file" "${extra[@]}" > "$md"
    code=$?
    output changes "$([ "$code" -eq 2 ] && echo true || echo false)"
    output plan-file "$plan_file"
    cat "$md"
    # On a pull request: one comment, updated in place on every push. Also when the plan failed with a plan
    # to show (blocked objects), so the reviewer sees why.
    if [ "${DOCOPS_COMMENT:-true}" = "true" ] && [ "${GITHUB_EVENT_NAME:-}" = "pull_request" ] && [ -s "$md" ]; then
      docops pr-comment --body-file "$md" --marker "${DOCOPS_COMMENT_MARKER:-docops-plan}" || code=1
    fi
    # 0 = in sync, 2 = changes pending: both are a successful plan.
    if [ "$code" -eq 2 ]; then output exit-code 2; exit 0; fi
    ;;
  apply)
    # Applies exactly the saved, reviewed plan; refused (exit 1) when the manifests or live objects changed since.
    docops apply -m "$manifests" --plan "$plan_file" "${extra[@]}"
    code=$?
    ;;
  *)
    echo "::error::docops action: input 'command' must be validate, plan or apply (got '${DOCOPS_COMMAND:-}')"
    code=1
    ;;
esac
output exit-code "$code"
exit "$code"
