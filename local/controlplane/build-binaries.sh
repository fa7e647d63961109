#!/usr/bin/env bash
# Builds the real Kubernetes test binaries from published Go modules into a versioned cache outside the clone.
# Skips every binary that is already there. Honours KUBEBUILDER_ASSETS (use those binaries, build nothing).
# Prints the directory holding the binaries as the last line of stdout; progress goes to stderr.
# LIFECYCLE_BINARIES_FOR=start (set by `./dev start`, `./dev start:knative` and `./dev kubectl`) builds only what the
# embedded control plane runs; the binaries only the tests use (oras) are built when the tests first need them.
# `build-binaries.sh monitoring` builds Prometheus, promtool and Jaeger into a directory of their own (test/monitoring).
set -euo pipefail

K8S_VERSION="${K8S_VERSION:-1.36.3}"
ETCD_VERSION="${ETCD_VERSION:-3.6.16}"
KWOK_VERSION="${KWOK_VERSION:-0.8.0}"
ORAS_VERSION="${ORAS_VERSION:-1.3.6}"
REGISTRY_VERSION="${REGISTRY_VERSION:-3.0.0}"
HELM_VERSION="${HELM_VERSION:-4.3.1}"
PROMETHEUS_VERSION="${PROMETHEUS_VERSION:-0.316.0}"
JAEGER_VERSION="${JAEGER_VERSION:-1.76.0}"
if [ "${1:-}" = monitoring ]; then LIFECYCLE_BINARIES_FOR=monitoring; fi
BINARIES=(kube-apiserver kube-controller-manager kube-scheduler kubectl etcd kwok oras registry helm)
case "${LIFECYCLE_BINARIES_FOR:-test}" in
  start) BINARIES=(kube-apiserver kube-controller-manager kube-scheduler kubectl etcd kwok registry helm) ;;
  test) ;;
  monitoring) BINARIES=(prometheus promtool jaeger) ;; # alerts, dashboards, traces (test/monitoring): a directory of their own
  *) printf 'LIFECYCLE_BINARIES_FOR must be start, test or monitoring, not %s\n' "$LIFECYCLE_BINARIES_FOR" >&2; exit 2 ;;
esac

say() { printf '[testbin %s] %s\n' "$(date +%H:%M:%S)" "$*" >&2; }

if [ -n "${KUBEBUILDER_ASSETS:-}" ] && [ "${LIFECYCLE_BINARIES_FOR:-test}" != monitoring ]; then
  missing=()
  for b in "${BINARIES[@]}"; do [ -x "$KUBEBUILDER_ASSETS/$b" ] || missing+=("$b"); done
  if [ "${#missing[@]}" -gt 0 ]; then
    say "KUBEBUILDER_ASSETS=$KUBEBUILDER_ASSETS lacks: ${missing[*]}"
    say "put those binaries there, or unset KUBEBUILDER_ASSETS to build them from Go modules"
    exit 1
  fi
  echo "$KUBEBUILDER_ASSETS"; exit 0
fi

cache_root="${XDG_CACHE_HOME:-$HOME/.cache}/kyma-lifecycle-testbin"
OUT="$cache_root/k8s-$K8S_VERSION-etcd-$ETCD_VERSION-kwok-$KWOK_VERSION-oras-$ORAS_VERSION-registry-$REGISTRY_VERSION-helm-$HELM_VERSION"
[ "${LIFECYCLE_BINARIES_FOR:-test}" = monitoring ] && OUT="$cache_root/prometheus-$PROMETHEUS_VERSION-jaeger-$JAEGER_VERSION"
mkdir -p "$OUT"

todo=()
for b in "${BINARIES[@]}"; do [ -x "$OUT/$b" ] || todo+=("$b"); done
if [ "${#todo[@]}" -eq 0 ]; then echo "$OUT"; exit 0; fi

if ! command -v go >/dev/null 2>&1; then
  say "missing test binaries (${todo[*]}) and no Go toolchain on PATH."
  say "Either install Go >= 1.26 (https://go.dev/doc/install) and run again, or point KUBEBUILDER_ASSETS"
  say "at a directory holding: ${BINARIES[*]}"
  exit 1
fi

# One builder at a time per cache (parallel test runs wait here, then find the binaries built).
exec 9>"$cache_root/.build.lock"; flock 9
todo=(); for b in "${BINARIES[@]}"; do [ -x "$OUT/$b" ] || todo+=("$b"); done
if [ "${#todo[@]}" -eq 0 ]; then echo "$OUT"; exit 0; fi

export GOTOOLCHAIN=local CGO_ENABLED=0 GOFLAGS=-mod=mod
timer=(); if [ -x /usr/bin/time ]; then timer=(/usr/bin/time -f '  %e s wall, %M KiB peak RSS'); fi
needs() { for t in "${todo[@]}"; do [ "$t" = "$1" ] && return 0; done; return 1; }
started=$(date +%s)
last=$(cat "$cache_root/.last-build-seconds" 2>/dev/null || true)
if [ -n "$last" ]; then estimate="the last build of ${last##* } binaries here took $(( ${last%% *} / 60 )) min"
else estimate="a cold build takes 8 to 30 minutes on 2 cores, depending on the Go module cache and the machine's load"; fi
say "building ${todo[*]} into $OUT ($estimate)"

log="$OUT/build.log"; : >"$log"
# Runs a step with its output in the build log, a heartbeat every minute, and the log's tail on failure.
step() {
  local label="$1"; shift
  local t0; t0=$(date +%s)
  ( while sleep 60; do say "  $label: still running ($(( $(date +%s) - t0 )) s)"; done ) &
  local ticker=$!
  if "$@" >>"$log" 2>&1; then kill "$ticker" 2>/dev/null; wait "$ticker" 2>/dev/null || true
    say "  $label: done in $(( $(date +%s) - t0 )) s $(tail -n 1 "$log" | grep -o '[0-9.]* s wall.*' || true)"
  else kill "$ticker" 2>/dev/null; say "  $label FAILED; last lines of $log:"; tail -n 30 "$log" >&2; exit 1; fi
}
# One throwaway Go module per upstream project, so their dependency graphs never mix.
module() { local dir; dir=$(mktemp -d); (cd "$dir" && go mod init example.invalid/"$1" >/dev/null 2>&1); echo "$dir"; }

build_kubernetes() {
  local work minor patch gomod upgo ld p c
  work=$(module k8s); cd "$work"
  minor=$(cut -d. -f2 <<<"$K8S_VERSION"); patch=$(cut -d. -f3 <<<"$K8S_VERSION")
  gomod=$(go mod download -json "k8s.io/kubernetes@v$K8S_VERSION" | sed -n 's/.*"GoMod": "\(.*\)".*/\1/p')
  for m in $(sed -n 's|^[[:space:]]*\(k8s\.io/[^[:space:]]*\) => \./staging/.*|\1|p' "$gomod"); do
    go mod edit -replace="$m=$m@v0.$minor.$patch"
  done
  upgo=$(sed -n 's/^go \([0-9.]*\)$/\1/p' "$gomod")
  go mod edit -go="$upgo" -godebug="default=go${upgo%.*}"
  step "resolve kubernetes modules" go get -tool "k8s.io/kubernetes/cmd/kube-apiserver@v$K8S_VERSION" \
    "k8s.io/kubernetes/cmd/kube-controller-manager@v$K8S_VERSION" "k8s.io/kubernetes/cmd/kube-scheduler@v$K8S_VERSION" \
    "k8s.io/kubernetes/cmd/kubectl@v$K8S_VERSION"
  ld="-s -w"
  for p in k8s.io/component-base/version k8s.io/client-go/pkg/version; do
    ld+=" -X $p.gitVersion=v$K8S_VERSION -X $p.gitMajor=1 -X $p.gitMinor=$minor -X $p.gitTreeState=clean"
  done
  for c in kube-apiserver kube-controller-manager kube-scheduler kubectl; do
    needs "$c" || continue
    step "build $c" "${timer[@]}" go build -trimpath -tags selinux,notest,grpcnotrace -ldflags "$ld" \
      -o "$OUT/$c.tmp" "k8s.io/kubernetes/cmd/$c"
    mv "$OUT/$c.tmp" "$OUT/$c"
  done
  rm -rf "$work"
}

build_tool() { # name module-path package version [build tags]
  local work; work=$(module "$1"); cd "$work"
  step "resolve $1 ($3@v$4)" go get -tool "$3@v$4"
  step "build $1" "${timer[@]}" go build -trimpath -tags "${5:-}" -ldflags "-s -w" -o "$OUT/$1.tmp" "$3"
  mv "$OUT/$1.tmp" "$OUT/$1"
  rm -rf "$work"
}

if needs kube-apiserver || needs kube-controller-manager || needs kube-scheduler || needs kubectl; then build_kubernetes; fi
needs etcd && build_tool etcd go.etcd.io/etcd/server/v3 go.etcd.io/etcd/server/v3 "$ETCD_VERSION"
needs kwok && build_tool kwok sigs.k8s.io/kwok sigs.k8s.io/kwok/cmd/kwok "$KWOK_VERSION"
needs oras && build_tool oras oras.land/oras oras.land/oras/cmd/oras "$ORAS_VERSION"
needs registry && build_tool registry github.com/distribution/distribution/v3 \
  github.com/distribution/distribution/v3/cmd/registry "$REGISTRY_VERSION"
needs helm && build_tool helm helm.sh/helm/v4 helm.sh/helm/v4/cmd/helm "$HELM_VERSION"
for p in prometheus promtool; do
  # remove_all_sd: no cloud service discovery (static targets are all the tests use), far fewer packages to compile
  needs "$p" && build_tool "$p" github.com/prometheus/prometheus "github.com/prometheus/prometheus/cmd/$p" \
    "$PROMETHEUS_VERSION" remove_all_sd
done
needs jaeger && build_tool jaeger github.com/jaegertracing/jaeger github.com/jaegertracing/jaeger/cmd/jaeger "$JAEGER_VERSION"

took=$(( $(date +%s) - started ))
echo "$took ${#todo[@]}" >"$cache_root/.last-build-seconds"
say "all test binaries ready in $took s"
echo "$OUT"
