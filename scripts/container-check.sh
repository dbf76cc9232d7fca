#!/usr/bin/env bash
# Checks the container image as an organiser would use it: builds
# contrib/Containerfile, checks that /data in the image is 0700 and the
# runtime user's (a named volume takes that mode and owner), then, with a
# fresh NAMED volume on /data, runs as the image's user (65532)
#   referee init                 (creates /data/referee.db)
#   referee serve --once         (the embedded mail server, one pass)
#   referee health               (against a running serve, as HEALTHCHECK does)
# and removes the volume, the containers and the images afterwards.
#
#   scripts/container-check.sh            (podman, else docker)
#   ENGINE=docker scripts/container-check.sh
#   STANDIN=1 scripts/container-check.sh  (the stand-in below, even if the
#                                          base images could be pulled)
#   BINARY=/tmp/referee-static scripts/container-check.sh
#                                         (the stand-in with a binary built
#                                          before, as CI does, not built again)
#
# The base images (GO_IMAGE, default golang:1.26-bookworm, and RUN_IMAGE,
# default gcr.io/distroless/static-debian12:nonroot) are pulled when they
# can be. Where they cannot (CI, no network), the final stage of the
# Containerfile, copied verbatim, is built on local stand-ins: for the build
# stage, the static binary built here by scripts/build-static.sh and /data
# as that stage makes it; for RUN_IMAGE, an image FROM scratch with the
# binary's shared libraries (none: it is static), /etc/passwd and
# /etc/group naming the distroless users, and /tmp. The build stage's own
# lines are then not run (the Go test of contrib/ checks them).
#
# podman runs with storage of its own under a temporary directory (vfs),
# runc when installed, cgroupfs and no default ulimits, so that it works as
# root in a container sandbox and leaves the machine's podman untouched.
# Containers run without a network (--network none): serve --once talks to
# its embedded mail server on the container's loopback. It skips (exit 0,
# saying why) only where no engine is installed or the engine cannot run;
# with CONTAINER_CHECK_REQUIRED=1 (CI) that is a failure.
set -euo pipefail
cd "$(dirname "$0")/.."
skip() {
  if [ "${CONTAINER_CHECK_REQUIRED:-}" = 1 ]; then echo "container-check: FAILED (required): $*" >&2; exit 1; fi
  echo "container-check: SKIPPED: $*" >&2; exit 0
}
fail() { echo "container-check: FAILED: $*" >&2; exit 1; }
engine=${ENGINE:-}
if [ -z "$engine" ]; then
  if command -v podman >/dev/null; then engine=podman
  elif command -v docker >/dev/null; then engine=docker
  else skip "neither podman nor docker is installed (Debian: apt-get install podman buildah runc)"; fi
fi
work=$(mktemp -d)
ce=("$engine")
if [ "$engine" = podman ]; then
  printf '[containers]\ndefault_ulimits = []\n' >"$work/containers.conf"
  export CONTAINERS_CONF=${CONTAINERS_CONF:-$work/containers.conf}
  ce+=(--root "$work/storage" --runroot "$work/run" --storage-driver vfs --cgroup-manager cgroupfs)
  if command -v runc >/dev/null; then ce+=(--runtime runc); fi
fi
tag=localhost/referee-container-check:$$
base=localhost/referee-container-base:$$
vol=referee-check-$$
name=referee-check-$$
cleanup() {
  "${ce[@]}" rm -f "$name" "$name-x" >/dev/null 2>&1 || true
  "${ce[@]}" volume rm -f "$vol" >/dev/null 2>&1 || true
  "${ce[@]}" rmi -f "$tag" "$base" >/dev/null 2>&1 || true
  if [ "$engine" = podman ]; then
    # vfs layers can hold files only root may remove: ask podman first.
    "${ce[@]}" system reset -f >/dev/null 2>&1 || true
  fi
  rm -rf "$work" 2>/dev/null || true
}
trap cleanup EXIT
if ! "${ce[@]}" info >/dev/null 2>&1; then
  skip "$engine is installed but cannot run here ($engine info fails)"
fi
format=()
[ "$engine" = podman ] && format=(--format docker) # keeps HEALTHCHECK (OCI images have none)
# The checks run referee health themselves; the engine's own timer for
# HEALTHCHECK needs systemd, which a CI machine may not run.
nohc=(--no-healthcheck)
go_image=${GO_IMAGE:-docker.io/library/golang:1.26-bookworm}
run_image=${RUN_IMAGE:-gcr.io/distroless/static-debian12:nonroot}
revision=$(git rev-parse --short=12 HEAD 2>/dev/null || true)

standin=${STANDIN:-}
if [ -z "$standin" ]; then
  for img in "$go_image" "$run_image"; do
    if ! "${ce[@]}" image inspect "$img" >/dev/null 2>&1 && ! timeout 120 "${ce[@]}" pull -q "$img" >/dev/null 2>&1; then
      echo "container-check: the base image $img is not present and cannot be pulled: building the final stage on local stand-ins"
      standin=1
      break
    fi
  done
fi

SECONDS=0
if [ -z "$standin" ]; then
  echo "container-check: building contrib/Containerfile with $engine"
  "${ce[@]}" build "${format[@]}" -q -f contrib/Containerfile --build-arg GO_IMAGE="$go_image" --build-arg RUN_IMAGE="$run_image" \
    --build-arg VERSION=container-check --build-arg REVISION="$revision" -t "$tag" . >/dev/null || fail "the build failed"
else
  ctx=$work/ctx
  # out/ as the build stage leaves it: the binary, and /data (0700) inside
  # rootfs/ (out/data too, as earlier Containerfiles made it, so that a
  # final stage that copies that one is built and its /data checked).
  mkdir -p "$ctx/out/rootfs/data" "$ctx/out/data" "$work/base/etc" "$work/base/tmp" "$work/base/home/nonroot"
  if [ -n "${BINARY:-}" ]; then
    cp "$BINARY" "$ctx/out/referee"
  else
    REFEREE_VERSION=container-check REFEREE_COMMIT=$revision scripts/build-static.sh "$ctx/out/referee" >/dev/null
  fi
  chmod 0700 "$ctx/out/rootfs/data" "$ctx/out/data" # as the build stage's install -d -m 0700 makes it
  printf 'root:x:0:0:root:/root:/sbin/nologin\nnobody:x:65534:65534:nobody:/nonexistent:/sbin/nologin\nnonroot:x:65532:65532:nonroot:/home/nonroot:/sbin/nologin\n' >"$work/base/etc/passwd"
  printf 'root:x:0:\nnobody:x:65534:\nnonroot:x:65532:\n' >"$work/base/etc/group"
  chmod 1777 "$work/base/tmp"
  # The binary's shared libraries, should it have any (the static build has none).
  if ldd "$ctx/out/referee" >/dev/null 2>&1; then
    for lib in $(ldd "$ctx/out/referee" | awk '$2 == "=>" && $3 ~ /^\// {print $3} $1 ~ /^\// {print $1}'); do
      cp --parents -L "$lib" "$work/base/"
    done
  fi
  printf 'FROM scratch\nCOPY . /\n' >"$work/Base.Containerfile"
  "${ce[@]}" build "${format[@]}" -q -f "$work/Base.Containerfile" -t "$base" "$work/base" >/dev/null || fail "building the stand-in base image failed"
  # The final stage as written, after a stand-in for the build stage.
  {
    echo "ARG RUN_IMAGE=$base"
    echo "FROM scratch AS build"
    echo "COPY out/ /out/"
    sed -n '/^FROM \${RUN_IMAGE}/,$p' contrib/Containerfile
  } >"$work/Containerfile"
  grep -q '^FROM \${RUN_IMAGE}' "$work/Containerfile" || fail "contrib/Containerfile has no final stage FROM \${RUN_IMAGE}"
  echo "container-check: building the final stage of contrib/Containerfile with $engine on stand-ins"
  "${ce[@]}" build "${format[@]}" -q -f "$work/Containerfile" --build-arg RUN_IMAGE="$base" \
    --build-arg VERSION=container-check --build-arg REVISION="$revision" -t "$tag" "$ctx" >/dev/null || fail "the build of the final stage failed"
fi
echo "container-check: built in ${SECONDS}s"

# The version given at build time, without .git in the context (or, with
# BINARY, that binary's).
want=container-check
[ -n "$standin" ] && [ -n "${BINARY:-}" ] && want=$("$BINARY" version | head -n1)
if "${ce[@]}" run --rm "${nohc[@]}" --network none --entrypoint /usr/local/bin/referee "$tag" version | grep -qF "$want"; then :; else
  fail "referee version does not show the version given at build time ($want)"
fi

# /data in the image: 0700 and the runtime user's; / stays root's.
"${ce[@]}" create "${nohc[@]}" --name "$name-x" "$tag" >/dev/null
listing=$("${ce[@]}" export "$name-x" | tar -tvf - --numeric-owner)
"${ce[@]}" rm -f "$name-x" >/dev/null
data=$(awk '$NF == "data/" || $NF == "./data/" {print $1, $2}' <<<"$listing")
[ "$data" = "drwx------ 65532/65532" ] || fail "/data in the image is \"${data:-missing}\", want \"drwx------ 65532/65532\" (mode 0700, owned by the image's user)"
# The COPY that brings /data must leave / (and every other directory) root's.
others=$(awk '$1 ~ /^d/ && $2 != "0/0" && $NF != "data/" && $NF != "./data/" && $NF !~ /^(\.\/)?(tmp|home\/nonroot)\/$/ {print $NF " " $2}' <<<"$listing")
[ -z "$others" ] || fail "directories in the image not owned by root: $others"
user=$("${ce[@]}" image inspect --format '{{.Config.User}}' "$tag")
[ "$user" = "65532:65532" ] || fail "the image runs as \"$user\", want 65532:65532"
hc=$("${ce[@]}" image inspect --format '{{.Config.Healthcheck}}' "$tag" 2>/dev/null || true)
case $hc in *health*) ;; *) fail "the image has no HEALTHCHECK running referee health (got \"$hc\")" ;; esac


"${ce[@]}" volume create "$vol" >/dev/null
"${ce[@]}" run --rm "${nohc[@]}" --network none -v "$vol:/data" "$tag" init >/dev/null || fail "init on a fresh named volume failed (is /data owned by the image's user?)"
# A new named volume takes /data's mode and owner; where the engine shows
# its directory (podman, or docker as root), check them and the database's.
mp=$("${ce[@]}" volume inspect --format '{{.Mountpoint}}' "$vol" 2>/dev/null || true)
if [ -n "$mp" ] && [ -r "$mp" ]; then
  got=$(stat -c '%a %u:%g' "$mp")
  [ "$got" = "700 65532:65532" ] || fail "the named volume's directory is \"$got\", want \"700 65532:65532\""
  got=$(stat -c '%a %u:%g' "$mp/referee.db")
  [ "$got" = "600 65532:65532" ] || fail "/data/referee.db is \"$got\", want \"600 65532:65532\""
fi
"${ce[@]}" run --rm "${nohc[@]}" --network none -v "$vol:/data" "$tag" serve --once || fail "serve --once failed"
"${ce[@]}" run --rm "${nohc[@]}" --network none -v "$vol:/data" "$tag" list >/dev/null || fail "list failed"

# A running serve answers its own HEALTHCHECK.
"${ce[@]}" run -d "${nohc[@]}" --network none --name "$name" -v "$vol:/data" "$tag" serve >/dev/null
ok=
for _ in $(seq 1 30); do
  if "${ce[@]}" exec "$name" /usr/local/bin/referee health >/dev/null 2>&1; then ok=1; break; fi
  sleep 1
done
[ -n "$ok" ] || { "${ce[@]}" logs "$name" >&2 || true; fail "referee health never answered inside the running container"; }
"${ce[@]}" stop -t 30 "$name" >/dev/null
echo "container-check: OK in ${SECONDS}s (/data 0700 and the image user's; init, serve --once and health as 65532 on a named volume)"
