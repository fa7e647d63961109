#!/usr/bin/env bash
# Runs a command in a private network and mount namespace of its own (a user namespace makes this work without
# privileges): a loopback-only network in which Knative's components can listen on their Services' ports (80, 443)
# and the Services' ClusterIPs, and a hosts file of its own bind-mounted over /etc/hosts, which knative/cluster-dns.ts fills with the Services'
# cluster names. Nothing of the machine's own network or files changes; both namespaces end with the command.
# Usage: cluster-network.sh <command> [args…]   (the hosts file's path is in $KNATIVE_HOSTS_FILE)
set -euo pipefail
if [ "${KNATIVE_CLUSTER_NETWORK:-}" != "inside" ]; then
  command -v unshare >/dev/null || { echo "cluster-network.sh: unshare (util-linux) is needed" >&2; exit 1; }
  exec unshare --user --map-root-user --net --mount --fork env KNATIVE_CLUSTER_NETWORK=inside bash "$0" "$@"
fi
ip link set lo up 2>/dev/null || { echo "cluster-network.sh: cannot bring up loopback (iproute2's ip is needed)" >&2; exit 1; }
# The harness clusters' Service range (local/controlplane/cluster.ts) is local here: kube-proxy's part (cluster-dns.ts)
# listens on each Service's ClusterIP, which the kube-apiserver dials for webhooks.
ip route add local 10.0.0.0/24 dev lo table local
# The cluster side of every pod's veth pair (knative/pods.ts): pods route everything here.
ip addr add 10.244.0.1/32 dev lo
dir=$(mktemp -d "${TMPDIR:-/tmp}/knative-network-XXXXXX")
printf '127.0.0.1 localhost\n::1 localhost\n' >"$dir/hosts"
mount --bind "$dir/hosts" /etc/hosts
export KNATIVE_HOSTS_FILE="$dir/hosts"
status=0; "$@" || status=$?
rm -rf "$dir"
exit "$status"
