#!/usr/bin/env bash
# The broker fault suite of issue 45 (docs/verification.md, "Broker faults"). Not part of CI.
#
#   parsley-faults/fault-suite.sh                     # every phase, the issue's durations (about 12-15 minutes)
#   parsley-faults/fault-suite.sh --quick             # every phase, durations divided by three (about 6-8 minutes)
#   parsley-faults/fault-suite.sh --faults coordinator-kill,client-cut --quick   # a subset, in that order
#   parsley-faults/fault-suite.sh --rate 20           # orders per second (as many payments again; default 10)
#
# Phases: coordinator-kill, rolling-restart, group-coordinator-pause, client-cut, app-kill-broker-down;
# the suite always measures both applications idle and under traffic without a fault first.
#
# Needs root and `ip netns`: it makes two private network namespaces joined by a veth pair, the
# brokers in one (client addresses 10.213.0.11-13, inter-broker and controller listeners on that
# namespace's own loopback) and the suite and both applications in the other, where the client
# cut-off is a blackhole route. The host's interfaces, routes and firewall are never touched; the
# namespaces, and every process in them, are removed on exit.
#
# It builds parsley-faults and its classpath (Maven, offline unless FAULTS_MVN_FLAGS says otherwise),
# starts three KRaft brokers (kafka_2.13 from Maven, each its own JVM), the Parsley application and the
# plain Kafka Streams control (each its own JVM) and the load, runs the phases and writes
# parsley-faults/target/faults/report.md. Logs: broker-N/broker.log, parsley.log, plain.log, suite.out,
# suite-clients.log, all in parsley-faults/target/faults. Exit status: 0 if Parsley passed every phase,
# 1 if not, 2 on a usage or environment error.
set -euo pipefail

usage() { sed -n '2,24p' "$0" | sed 's/^# \{0,1\}//'; }

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/.." && pwd)"
WORK="$HERE/target/faults"
ARGS=()
while [[ $# -gt 0 ]]; do
  case "$1" in
    -h|--help) usage; exit 0 ;;
    --quick) ARGS+=(--quick) ;;
    --faults|--rate) [[ $# -ge 2 ]] || { echo "$1 needs a value" >&2; usage >&2; exit 2; }
      ARGS+=("$1" "$2"); shift ;;
    *) echo "unknown option $1" >&2; usage >&2; exit 2 ;;
  esac
  shift
done

log() { echo "[fault-suite.sh $(date +%H:%M:%S)] $*"; }

if [[ "$(id -u)" != 0 ]]; then
  echo "fault-suite.sh must run as root: it makes private network namespaces (ip netns) for the brokers and" >&2
  echo "the clients, so that cutting clients off from a broker never touches this host's routes or firewall." >&2
  exit 2
fi
if ! command -v ip >/dev/null || ! ip netns list >/dev/null 2>&1; then
  echo "fault-suite.sh needs 'ip netns' (iproute2 with network namespace support); it is not available here." >&2
  exit 2
fi

mkdir -p "$HERE/target"
exec 9>"$HERE/target/fault-suite.lock"
if ! flock -n 9; then
  echo "another fault-suite.sh run is using $WORK; wait for it to finish" >&2
  exit 1
fi
rm -rf "$WORK"
mkdir -p "$WORK"

log "building parsley-faults and its classpath (tests skipped)"
(cd "$ROOT" && mvn -B -ntp -q ${FAULTS_MVN_FLAGS:--o} -pl parsley-faults -am package -DskipTests)
CP="$HERE/target/classes:$(cat "$HERE/target/faults-classpath.txt")"

NS_BROKERS="pfs-$$-brokers"
NS_CLIENTS="pfs-$$-clients"
cleanup() {
  for ns in "$NS_CLIENTS" "$NS_BROKERS"; do
    if ip netns list | grep -qw "$ns"; then
      # Only this run's processes live in its namespaces: the suite, its brokers and applications.
      for pid in $(ip netns pids "$ns" 2>/dev/null); do
        kill -KILL "$pid" 2>/dev/null || true
      done
      ip netns del "$ns" || true
    fi
  done
}
trap cleanup EXIT
trap 'exit 130' INT TERM

log "making namespaces $NS_BROKERS (brokers) and $NS_CLIENTS (suite and applications)"
ip netns add "$NS_BROKERS"
ip netns add "$NS_CLIENTS"
ip -n "$NS_BROKERS" link set lo up
ip -n "$NS_CLIENTS" link set lo up
# Made inside the brokers' namespace with its peer moved straight into the clients' one, so the
# pair never appears among the host's interfaces.
ip -n "$NS_BROKERS" link add vbrokers type veth peer name vclients netns "$NS_CLIENTS"
HOSTS=()
for i in 1 2 3; do
  ip -n "$NS_BROKERS" addr add "10.213.0.1$i/24" dev vbrokers
  HOSTS+=("10.213.0.1$i")
done
ip -n "$NS_CLIENTS" addr add 10.213.0.2/24 dev vclients
ip -n "$NS_BROKERS" link set vbrokers up
ip -n "$NS_CLIENTS" link set vclients up

BUILD="$(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo unknown)$(git -C "$ROOT" diff --quiet 2>/dev/null || echo '+changes')"
log "running the suite (build $BUILD); progress below, report in $WORK/report.md"
set +e
FAULTS_BUILD="$BUILD" ip netns exec "$NS_CLIENTS" java -Xms256m -Xmx512m -XX:+UseSerialGC \
  -Dorg.slf4j.simpleLogger.defaultLogLevel=warn -Dorg.slf4j.simpleLogger.showDateTime=true \
  -Dorg.slf4j.simpleLogger.logFile="$WORK/suite-clients.log" \
  -cp "$CP" io.github.tobyjamesclements.parsley.faults.FaultSuite --work "$WORK" \
  --broker-netns "$NS_BROKERS" --broker-hosts "$(IFS=,; echo "${HOSTS[*]}")" ${ARGS[@]+"${ARGS[@]}"} \
  | tee "$WORK/suite.out"
RC=${PIPESTATUS[0]}
set -e
log "suite exited $RC; report: $WORK/report.md"
exit "$RC"
