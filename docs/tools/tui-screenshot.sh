#!/usr/bin/env bash
# Regenerate docs/tui.png and docs/tui-conflict.png: a real `dossier tui` at 80x24 under
# tmux, on a temporary store holding the sample Dossiers (assets/examples) and a few more,
# captured with colours (`capture-pane -e -p`) and rendered by ansi2png.py (needs Pillow).
# A docs tool, not a test. Usage: docs/tools/tui-screenshot.sh [path/to/dossier]
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
bin="${1:-${CARGO_TARGET_DIR:-$root/target}/debug/dossier}"
tmp="$(mktemp -d)"
sock="dossier-shot-$$"
trap 'tmux -L "$sock" kill-server 2>/dev/null || true; rm -rf "$tmp"' EXIT
export DOSSIER_HOME="$tmp/store" HOME="$tmp/home"
d() { "$bin" "$@" >/dev/null 2>&1; }
d init --yes --no-self-install
cp -r "$root"/assets/examples/checkout-retry-storm "$root"/assets/examples/search-index-migration "$DOSSIER_HOME"/
d promote --create --name "Pricing model refresh"
d next pricing-model-refresh "Compare scenarios with sales feedback"
d priority pricing-model-refresh --importance high --urgency low --due 2026-12-20
d promote --create --name "Onboarding emails"
d next onboarding-emails "Wait for legal review of the consent wording"
d priority onboarding-emails --importance low --urgency high
d status onboarding-emails blocked
d promote --create --name "Docs cleanup"
d next docs-cleanup "Sweep pages that still describe the v1 API"
d priority docs-cleanup --importance low --urgency low
# A concurrent edit: two saves on the same base revision.
rev="$("$bin" show docs-cleanup --json | python3 -c 'import json,sys; print(json.load(sys.stdin)["data"]["revision"])')"
state() { printf '# Docs cleanup\n\n## Situation\n\nThe API reference still shows v1 endpoints.\n\n## Decisions\n\n## Findings\n\n## Current State\n\n%s\n\n## Next Steps\n\n- Sweep the remaining pages.\n' "$1"; }
state "Twelve of forty pages are updated." > "$tmp/a.md"
state "Twelve of forty pages are updated; the changelog is next." > "$tmp/b.md"
d save docs-cleanup --base-revision "$rev" --from-file "$tmp/a.md"
d save docs-cleanup --base-revision "$rev" --from-file "$tmp/b.md" || true
"$bin" switch checkout-retry-storm --session demo >/dev/null 2>&1

shot() {
  sleep 1
  tmux -L "$sock" capture-pane -e -p -t s > "$tmp/cap.txt"
  python3 "$root/docs/tools/ansi2png.py" "$tmp/cap.txt" "$1"
  echo "wrote $1"
}
tmux -L "$sock" new-session -d -s s -x 80 -y 24 \
  "env DOSSIER_HOME=$DOSSIER_HOME HOME=$HOME TERM=screen-256color $bin tui --session demo"
sleep 2
shot "$root/docs/tui.png"
tmux -L "$sock" send-keys -t s c; sleep 0.5
tmux -L "$sock" send-keys -t s Enter
shot "$root/docs/tui-conflict.png"
tmux -L "$sock" send-keys -t s Escape Escape q
