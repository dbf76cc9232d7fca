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
mod=$(go list -m)

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
        *) excl+=(-E "^$(basename "$f" .go)\\.go\$") ;; # anchored: "format\.go$" would leave out event_format.go too
      esac
    done
  fi
  name=${pkg//\//_}
  echo "== $pkg ($(date -u +%H:%M:%S))" >&2
  # gremlins v0.6.0 removes "MODULE/" wherever it occurs in the coverage
  # profile's file names: in module referee, "referee/internal/referee/x.go"
  # becomes "internal/x.go" and no mutant of internal/referee is ever
  # covered. Such a package is tested in a copy of the tree whose module
  # is renamed. GOFLAGS=-count=1: a cached coverage run would make the
  # timeouts (TIMEOUT_COEFF times its duration) too short.
  # Every package is tested in such a copy, which also keeps the run
  # apart from edits made to the tree meanwhile.
  dir=$(mktemp -d)
  tar --exclude=.git -cf - . | tar -xf - -C "$dir"
  sed -i "s|^module $mod\$|module gremlinsmod|" "$dir/go.mod"
  grep -rl --include='*.go' "\"$mod/" "$dir" | xargs sed -i "s|\"$mod/|\"gremlinsmod/|g"
  # gremlins exits non-zero only for its own thresholds, which are not set.
  (cd "$dir" && GOFLAGS="-count=1 ${GOFLAGS:-}" gremlins unleash --invert-logical --workers "${WORKERS:-1}" \
    --timeout-coefficient "${TIMEOUT_COEFF:-10}" ${excl[@]+"${excl[@]}"} \
    -o "$out/$name.json" "./$pkg" >"$out/$name.log" 2>&1) ||
    { echo "gremlins failed on $pkg: see $out/$name.log" >&2; tail -5 "$out/$name.log" >&2; exit 2; }
  rm -rf "$dir"
done

go run ./scripts/mutationreport -equivalent scripts/mutation-equivalent.txt -min "${MIN:-90}" \
  $(for pkg in "${pkgs[@]}"; do pkg=${pkg#./}; pkg=${pkg%/}; echo "$out/${pkg//\//_}.json"; done)
