#!/usr/bin/env bash
# Mutation testing with gremlins: which changes to the code no test notices.
#
#   scripts/mutation.sh [PKG ...]     e.g. scripts/mutation.sh internal/rating internal/event
#
# Without arguments it runs the packages whose tests must catch what matters
# (issue 44): internal/rating, internal/event, internal/mail/reader,
# internal/notation and internal/referee (its handle.go, conditional.go,
# clock.go and event files only). For each package it prints the test
# efficacy (killed mutants over killed and lived) and every surviving
# mutant; a survivor listed in scripts/mutation-equivalent.txt is shown with
# the reason it cannot change behaviour, any other is a gap in the tests and
# makes the script exit 1 (so does a package under MIN percent, default 90,
# once the listed equivalent mutants are left out).
#
# Environment: WORKERS (parallel mutants, default 1), TIMEOUT_COEFF (default
# 10: a loaded machine makes slow tests look like timeouts), MIN, OUT (the
# folder for the JSON reports, default a temporary one).
set -euo pipefail
cd "$(dirname "$0")/.."

GREMLINS_VERSION=v0.6.0
export PATH="$(go env GOPATH)/bin:$PATH"
if ! command -v gremlins >/dev/null; then
  echo "installing gremlins $GREMLINS_VERSION from the Go module proxy" >&2
  go install "github.com/go-gremlins/gremlins/cmd/gremlins@$GREMLINS_VERSION"
fi

pkgs=("$@")
if [ ${#pkgs[@]} -eq 0 ]; then
  pkgs=(internal/rating internal/event internal/mail/reader internal/notation internal/referee)
fi
out=${OUT:-$(mktemp -d)}
mkdir -p "$out"
out=$(cd "$out" && pwd)

# Gremlins runs in a copy of the tree whose module is renamed: gremlins
# v0.6.0 maps coverage to files by deleting every "MODULE/" from the
# profile's paths (internal/coverage/coverage.go), which turns
# "referee/internal/referee/handle.go" into "internal/handle.go", and
# every mutant of internal/referee would be reported as not covered. The
# copy also keeps the run apart from edits made meanwhile.
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
tar --exclude=.git -cf - . | tar -C "$work" -xf -
sed -i 's#^module referee$#module example.org/referee#' "$work/go.mod"
grep -rl --include='*.go' '"referee/' "$work" | xargs sed -i 's#"referee/#"example.org/referee/#g'

for pkg in "${pkgs[@]}"; do
  pkg=${pkg#./}; pkg=${pkg%/}
  excl=()
  if [ "$pkg" = internal/referee ]; then
    # The core's guards and formulas: the command handlers, conditional
    # moves, the clock and events. The texts of the other files are
    # checked by golden mails, not by mutants.
    for f in internal/referee/*.go; do
      case "$(basename "$f")" in
        *_test.go|handle.go|conditional.go|clock.go|event*.go|knockout.go) ;;
        *) excl+=(-E "$(basename "$f" .go)\\.go\$") ;;
      esac
    done
  fi
  name=${pkg//\//_}
  echo "== $pkg ($(date -u +%H:%M:%S))" >&2
  # gremlins exits non-zero only for its own thresholds, which are not set.
  (cd "$work" && gremlins unleash --invert-logical --workers "${WORKERS:-1}" \
    --timeout-coefficient "${TIMEOUT_COEFF:-10}" ${excl[@]+"${excl[@]}"} \
    -o "$out/$name.json" "./$pkg") >"$out/$name.log" 2>&1 ||
    { echo "gremlins failed on $pkg: see $out/$name.log" >&2; tail -5 "$out/$name.log" >&2; exit 2; }
done

go run ./scripts/mutationreport -equivalent scripts/mutation-equivalent.txt -min "${MIN:-90}" \
  $(for pkg in "${pkgs[@]}"; do pkg=${pkg#./}; pkg=${pkg%/}; echo "$out/${pkg//\//_}.json"; done)
