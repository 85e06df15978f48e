#!/usr/bin/env bash
# End-to-end benchmark of the Kafka Streams host (docs/performance.md, "The end-to-end harness").
#
#   parsley-benchmarks/e2e.sh            # full run (3 rounds; about 8-10 minutes on 2 busy cores)
#   parsley-benchmarks/e2e.sh --quick    # smoke run (2 small rounds; about 3 minutes)
#   parsley-benchmarks/e2e.sh --profile  # adds JFR recordings of the harness JVM and the broker (harness.jfr, broker.jfr)
#   parsley-benchmarks/e2e.sh -- --rounds 5 --rate 3000   # anything after -- goes to the harness
#   parsley-benchmarks/e2e.sh --no-heap -- ...   # skips HeldHeapReport (deterministic; minutes on a busy machine)
#   parsley-benchmarks/e2e.sh --pin -- ...       # the broker on the last CPU, the harness JVM on the others (taskset):
#                                                # the application no longer shares its cores with the broker
#
# Harness modes (after --; docs/performance.md, "How to reproduce"; the results of each mode in
# docs/design-record/performance-results.md: "Results: realistic variant", "Results: with compressed batches
# (lz4)", "Results: scale", "Results: restore", "What a header costs Kafka", "Wide topics and deep pipelines"):
#   --variants json-baseline,json-parsley       JSON orders/payments folded into a per-customer balance
#   --variants json-baseline,json-floor,json-floor-bare   the JSON floor with and without its output header
#   --variants baseline,floor,parsley           adds the floor: the plain copy plus a 32-byte vc header, a custom
#                                               partitioner and a cached store (what any stamp costs Streams)
#   --threads 2 / --instances 2                 every variant with 2 stream threads / 2 instances
#   --restore 10000,100000                      restore N held records on an empty state dir (instead of rounds)
#   --compression lz4                           compression.type of every producer, applications' and harness's
#   --task-idle-ms -1                           max.task.idle.ms of every application (default: each its own)
#   --header-cost 0,2,30,58 --records 500000    Kafka alone (no Streams): records with a vc header of each size
#                                               sent and read back; clients' and broker's CPU (instead of rounds)
#   --pipeline 2 --partitions 4,16,64 --records 100000   one application re-keying every order over 2 hops
#                                               (orders -> notes -> audited; 3 adds -> archive), as Parsley stages and
#                                               as plain Streams, per partition count (every topic of a run has that
#                                               many) and round, pre-loaded; vc bytes per hop (mean, p99, max),
#                                               throughput and stream-thread CPU ratios, every order once per hop
#                                               (instead of rounds; --warmup N sizes the warm-up, 0 skips it)
#   --reads 20000 --keys 10000                 reads of fold state: local read latency against plain IQv2 KeyQuery
#                                               and read-after-write against the pipeline latency (instead of rounds)
#   --pipeline 2 --pipeline-variants baseline,floor,parsley   adds the pipeline's floor: the plain hops plus a vc
#                                               header per hop as large as Parsley's there (fitted per hop and P),
#                                               its partitioner and a cached store per hop; floor/plain and
#                                               Parsley/floor ratios (default baseline,parsley)
#
# It builds the harness (parsley-benchmarks, profile e2e) and a Kafka 4.1.2 broker classpath from
# Maven artifacts (e2e/broker-pom.xml), formats a fresh KRaft log dir, starts the broker in its own
# JVM on free loopback ports, runs EndToEndBenchmark and HeldHeapReport, and always stops the broker.
# Results: parsley-benchmarks/target/e2e/results.md and heap.md; logs next to them.
# Environment: E2E_MVN_FLAGS (e.g. -o for offline), E2E_HARNESS_HEAP (default 2g), E2E_BROKER_HEAP (1g),
# E2E_TIMEOUT (seconds for the harness; default 1500, quick 600), E2E_BROKER_VERSION (the broker's Kafka
# version, org.apache.kafka:kafka_2.13 from Maven; default the build's managed kafka.version; the application
# keeps the build's clients: docs/compatibility.md).
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/.." && pwd)"
WORK="$HERE/target/e2e"
QUICK=0
PROFILE=0
HEAP=1
PIN=0
HARNESS_ARGS=()
while [[ $# -gt 0 ]]; do
  case "$1" in
    --quick) QUICK=1; HARNESS_ARGS+=(--quick) ;;
    --profile) PROFILE=1 ;;
    --no-heap) HEAP=0 ;;
    --pin) PIN=1 ;;
    --) shift; HARNESS_ARGS+=("$@"); break ;;
    *) echo "unknown option $1 (harness options go after --)" >&2; exit 2 ;;
  esac
  shift
done
MVN_FLAGS=(-B -ntp -q ${E2E_MVN_FLAGS:-})
TIMEOUT="${E2E_TIMEOUT:-$([[ $QUICK == 1 ]] && echo 600 || echo 1500)}"

log() { echo "[e2e.sh $(date +%H:%M:%S)] $*"; }

# --pin: the broker gets the last CPU to itself and the harness JVM (the application, its clients, the load
# producer and the output reader) the rest, as where the broker runs on other machines.
BROKER_CPUS=()
HARNESS_CPUS=()
if [[ $PIN == 1 ]]; then
  CPUS="$(nproc)"
  if [[ $CPUS -lt 2 ]] || ! command -v taskset >/dev/null; then
    echo "--pin needs taskset and at least 2 CPUs (this machine: $CPUS)" >&2
    exit 2
  fi
  BROKER_CPUS=(taskset -c "$((CPUS - 1))")
  HARNESS_CPUS=(taskset -c "0-$((CPUS - 2))")
fi

# One run at a time: a run deletes $WORK (and its broker's log dir) when it starts and ends, so a
# second run would pull the log dir from under the first one's broker.
mkdir -p "$(dirname "$WORK")"
exec 9>"$(dirname "$WORK")/e2e.lock"
if ! flock -n 9; then
  echo "another e2e.sh run is using $WORK; wait for it to finish" >&2
  exit 1
fi
rm -rf "$WORK"
mkdir -p "$WORK"

log "building the harness (parsley-core + parsley-benchmarks, tests skipped)"
(cd "$ROOT" && mvn "${MVN_FLAGS[@]}" -Pe2e -pl parsley-benchmarks -am package -DskipTests)
HARNESS_CP="$HERE/target/classes:$(cat "$HERE/target/e2e-classpath.txt")"

BROKER_VERSION_FLAGS=()
if [[ -n "${E2E_BROKER_VERSION:-}" ]]; then
  BROKER_VERSION_FLAGS=(-Dkafka.version="$E2E_BROKER_VERSION")
fi
log "resolving the broker classpath (org.apache.kafka:kafka_2.13 ${E2E_BROKER_VERSION:-, managed version})"
(cd "$ROOT" && mvn "${MVN_FLAGS[@]}" -f parsley-benchmarks/e2e/broker-pom.xml dependency:build-classpath \
  ${BROKER_VERSION_FLAGS[@]+"${BROKER_VERSION_FLAGS[@]}"} -Dmdep.outputFile="$WORK/broker-classpath.txt")
log "broker jar: $(tr ':' '\n' < "$WORK/broker-classpath.txt" | grep -o 'kafka_2.13-[^/]*\.jar' | head -1)"
BROKER_CP="$(cat "$WORK/broker-classpath.txt")"

# Two free loopback ports (the OS picks; other engineers may run brokers on this machine).
read -r PORT CONTROLLER_PORT < <(python3 -c '
import socket
s = [socket.socket() for _ in range(2)]
for x in s: x.bind(("127.0.0.1", 0))
print(*[x.getsockname()[1] for x in s])')

cat > "$WORK/server.properties" <<EOF
process.roles=broker,controller
node.id=1
controller.quorum.voters=1@127.0.0.1:$CONTROLLER_PORT
listeners=PLAINTEXT://127.0.0.1:$PORT,CONTROLLER://127.0.0.1:$CONTROLLER_PORT
advertised.listeners=PLAINTEXT://127.0.0.1:$PORT
controller.listener.names=CONTROLLER
inter.broker.listener.name=PLAINTEXT
listener.security.protocol.map=PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT
log.dirs=$WORK/kafka-logs
num.partitions=1
offsets.topic.replication.factor=1
offsets.topic.num.partitions=4
transaction.state.log.replication.factor=1
transaction.state.log.min.isr=1
transaction.state.log.num.partitions=4
share.coordinator.state.topic.replication.factor=1
share.coordinator.state.topic.min.isr=1
group.initial.rebalance.delay.ms=0
auto.create.topics.enable=false
EOF

BROKER_PID=""
stop_broker() {
  if [[ -n "$BROKER_PID" ]] && kill -0 "$BROKER_PID" 2>/dev/null; then
    log "stopping the broker (pid $BROKER_PID)"
    kill -TERM "$BROKER_PID" 2>/dev/null || true
    for _ in $(seq 1 60); do
      kill -0 "$BROKER_PID" 2>/dev/null || break
      sleep 0.5
    done
    if kill -0 "$BROKER_PID" 2>/dev/null; then
      log "broker did not stop in 30 s; killing it"
      kill -KILL "$BROKER_PID" 2>/dev/null || true
    fi
    wait "$BROKER_PID" 2>/dev/null || true
  fi
  BROKER_PID=""
  rm -rf "$WORK/kafka-logs"
}
trap stop_broker EXIT
trap 'exit 130' INT TERM

log "formatting KRaft storage"
CLUSTER_ID="$(java -cp "$BROKER_CP" kafka.tools.StorageTool random-uuid 2>>"$WORK/broker.log" | tail -1)"
java -cp "$BROKER_CP" kafka.tools.StorageTool format -t "$CLUSTER_ID" -c "$WORK/server.properties" \
  >>"$WORK/broker.log" 2>&1

JFR=()
BROKER_JFR=()
if [[ $PROFILE == 1 ]]; then
  # DebugNonSafepoints: samples name the line a compiled method was at, not its next safepoint poll
  JFR=(-XX:+UnlockDiagnosticVMOptions -XX:+DebugNonSafepoints
    -XX:StartFlightRecording=filename="$WORK/harness.jfr",settings=profile,jdk.ExecutionSample#period=1ms,dumponexit=true)
  BROKER_JFR=(-XX:+UnlockDiagnosticVMOptions -XX:+DebugNonSafepoints
    -XX:StartFlightRecording=filename="$WORK/broker.jfr",settings=profile,jdk.ExecutionSample#period=1ms,dumponexit=true)
fi

log "starting the broker on 127.0.0.1:$PORT (controller $CONTROLLER_PORT); log $WORK/broker.log"
${BROKER_CPUS[@]+"${BROKER_CPUS[@]}"} java -Xms"${E2E_BROKER_HEAP:-1g}" -Xmx"${E2E_BROKER_HEAP:-1g}" -XX:+UseG1GC ${BROKER_JFR[@]+"${BROKER_JFR[@]}"} \
  -Dorg.slf4j.simpleLogger.defaultLogLevel=info -Dorg.slf4j.simpleLogger.showDateTime=true \
  -Dorg.slf4j.simpleLogger.log.kafka.log=warn -Dorg.slf4j.simpleLogger.log.org.apache.kafka.storage=warn \
  -cp "$BROKER_CP" kafka.Kafka "$WORK/server.properties" >>"$WORK/broker.log" 2>&1 &
BROKER_PID=$!
for i in $(seq 1 120); do
  if grep -q "Kafka Server started" "$WORK/broker.log" 2>/dev/null; then
    break
  fi
  if ! kill -0 "$BROKER_PID" 2>/dev/null; then
    log "the broker exited during startup; tail of its log:"
    tail -40 "$WORK/broker.log"
    exit 1
  fi
  if [[ $i == 120 ]]; then
    log "the broker did not start in 60 s"
    exit 1
  fi
  sleep 0.5
done
log "broker ready (pid $BROKER_PID)"

log "running EndToEndBenchmark (timeout ${TIMEOUT}s); progress below, results in $WORK/results.md"
set +e
timeout --signal=TERM --kill-after=30 "$TIMEOUT" \
  ${HARNESS_CPUS[@]+"${HARNESS_CPUS[@]}"} java -Xms"${E2E_HARNESS_HEAP:-2g}" -Xmx"${E2E_HARNESS_HEAP:-2g}" -XX:+UseG1GC "${JFR[@]}" \
  -Dorg.slf4j.simpleLogger.defaultLogLevel=warn -Dorg.slf4j.simpleLogger.logFile="$WORK/harness-clients.log" \
  -cp "$HARNESS_CP" io.github.tobyjamesclements.parsley.EndToEndBenchmark \
  --bootstrap "127.0.0.1:$PORT" --work "$WORK" --broker-pid "$BROKER_PID" ${HARNESS_ARGS[@]+"${HARNESS_ARGS[@]}"} | tee "$WORK/harness.out"
RC=${PIPESTATUS[0]}
set -e
stop_broker

if [[ $HEAP == 1 ]]; then
  log "running HeldHeapReport (no broker)"
  java -Xms1g -Xmx1g -XX:+UseSerialGC -Djdk.attach.allowAttachSelf=true -Dorg.slf4j.simpleLogger.defaultLogLevel=warn \
    -cp "$HARNESS_CP" io.github.tobyjamesclements.parsley.HeldHeapReport \
    $([[ $QUICK == 1 ]] && echo --quick) | tee "$WORK/heap.md"
fi

if [[ $RC != 0 ]]; then
  log "EndToEndBenchmark failed (exit $RC)"
  exit "$RC"
fi
log "done: $WORK/results.md, $WORK/heap.md"
