#!/usr/bin/env bash
# Checks the container image as an organiser would use it: builds the final
# stage of contrib/Containerfile, then, with a fresh NAMED volume on /data
# (the case that failed when /data was root-owned), runs
#   referee init                 (creates /data/referee.db as the image's user)
#   referee serve --once         (the embedded mail server, one pass)
#   referee health               (against a running serve, as HEALTHCHECK does)
# and removes the volume and the image afterwards.
#
#   scripts/container-check.sh            (podman, else docker)
#   ENGINE=docker scripts/container-check.sh
#
# It needs podman, or docker with a running engine, and the base images
# (golang:1.26-bookworm and gcr.io/distroless/static-debian12:nonroot)
# present locally or pullable. CI cannot pull base images, so there it
# skips (exit 0, saying why); so does it anywhere no engine is available.
# GO_IMAGE and RUN_IMAGE name other (local) base images, e.g. a mirror.
set -euo pipefail
cd "$(dirname "$0")/.."
skip() { echo "container-check: SKIPPED: $*" >&2; exit 0; }
engine=${ENGINE:-}
if [ -z "$engine" ]; then
  if command -v podman >/dev/null; then engine=podman
  elif command -v docker >/dev/null; then engine=docker
  else skip "neither podman nor docker is installed"; fi
fi
if ! "$engine" info >/dev/null 2>&1; then
  skip "$engine is installed but has no running engine ($engine info fails)"
fi
go_image=${GO_IMAGE:-docker.io/library/golang:1.26-bookworm}
run_image=${RUN_IMAGE:-gcr.io/distroless/static-debian12:nonroot}
for img in "$go_image" "$run_image"; do
  if ! "$engine" image inspect "$img" >/dev/null 2>&1 && ! "$engine" pull -q "$img" >/dev/null 2>&1; then
    skip "the base image $img is not present and cannot be pulled (CI cannot pull base images; pull it, or set GO_IMAGE/RUN_IMAGE to local ones)"
  fi
done

tag=referee-container-check:$$
vol=referee-check-$$
name=referee-check-$$
cleanup() {
  "$engine" rm -f "$name" >/dev/null 2>&1 || true
  "$engine" volume rm -f "$vol" >/dev/null 2>&1 || true
  "$engine" rmi -f "$tag" >/dev/null 2>&1 || true
}
trap cleanup EXIT
fail() { echo "container-check: FAILED: $*" >&2; exit 1; }

echo "container-check: building with $engine"
format=()
[ "$engine" = podman ] && format=(--format docker) # keeps HEALTHCHECK (OCI images have none)
"$engine" build "${format[@]}" -q -f contrib/Containerfile --build-arg GO_IMAGE="$go_image" --build-arg RUN_IMAGE="$run_image" \
  --build-arg VERSION=container-check --build-arg REVISION="$(git rev-parse --short=12 HEAD 2>/dev/null || true)" -t "$tag" . >/dev/null || fail "the build failed"

# The version given at build time, without .git in the context.
if "$engine" run --rm --entrypoint /usr/local/bin/referee "$tag" version | grep -q container-check; then :; else
  fail "referee version does not show the version given at build time"
fi

"$engine" volume create "$vol" >/dev/null
"$engine" run --rm -v "$vol:/data" "$tag" init || fail "init on a fresh named volume failed (is /data owned by the image's user?)"
"$engine" run --rm -v "$vol:/data" "$tag" serve --once || fail "serve --once failed"
"$engine" run --rm -v "$vol:/data" "$tag" list >/dev/null || fail "list failed"

# A running serve answers its own HEALTHCHECK.
"$engine" run -d --name "$name" -v "$vol:/data" "$tag" serve >/dev/null
ok=
for _ in $(seq 1 30); do
  if "$engine" exec "$name" /usr/local/bin/referee health >/dev/null 2>&1; then ok=1; break; fi
  sleep 1
done
[ -n "$ok" ] || { "$engine" logs "$name" >&2 || true; fail "referee health never answered inside the running container"; }
"$engine" stop -t 30 "$name" >/dev/null
echo "container-check: OK (init, serve --once and health on a named volume)"
