#!/usr/bin/env bash
# The compatibility matrix of docs/compatibility.md: builds and tests Parsley's libraries with each
# row's Java, Spring Boot and Kafka clients, and runs a delivery against a standalone broker of each
# listed version. Writes compat/target/results.md and exits non-zero if any selected row failed.
#
#   compat/matrix.sh                       # every row (long: about 10 minutes a build row on 2 cores)
#   compat/matrix.sh --rows java25,broker-3.9.1
#   compat/matrix.sh --compile-only        # build rows compile and package only, no tests
#   compat/matrix.sh --list
#
# Build rows copy the working tree (tracked and untracked files, not ignored ones) to
# compat/target/<row>/src, set the row's spring-boot-starter-parent version there (Maven takes a
# parent's version only as a literal), and run
#   mvn verify -pl parsley-core,parsley-spring-boot-autoconfigure,parsley-spring-boot-starter,parsley-spring-boot-starter-test
# with the row's JAVA_HOME and version properties: unit tests, the simulator over COMPAT_SIM_SEEDS
# seeds per family (default 20: it runs no Kafka code), and the broker ITs. Their broker is the
# in-JVM one of spring-kafka-test where it works with the row's Kafka version ("embedded"), else a
# standalone broker of that version ("standalone"): then the core's ITs run against it
# (-Dparsley.it.bootstrap) except the secured ones and ClusterCheckIT, which start brokers of their
# own, and the starter's ITs, whose brokers are all in-JVM, are skipped. Broker rows run the core's
# ITs the same way, with the build's own clients, against a standalone broker of each version.
# Standalone brokers are org.apache.kafka:kafka_2.13 from Maven (parsley-benchmarks/e2e/broker-pom.xml),
# one KRaft node on loopback, configured as the in-JVM test broker is.
# Environment: COMPAT_MVN_FLAGS (e.g. -o), COMPAT_JAVA25 (default /usr/lib/jvm/temurin-25-jdk-amd64),
# COMPAT_SIM_SEEDS.
set -euo pipefail

HERE="$(cd "$(dirname "$0")" && pwd)"
ROOT="$(cd "$HERE/.." && pwd)"
WORK="$HERE/target"
JAVA17="${JAVA_HOME:-$(dirname "$(dirname "$(readlink -f "$(command -v java)")")")}"
JAVA25="${COMPAT_JAVA25:-/usr/lib/jvm/temurin-25-jdk-amd64}"
SEEDS="${COMPAT_SIM_SEEDS:-20}"
read -r -a MVN_EXTRA <<< "${COMPAT_MVN_FLAGS:-}"
LIBS=parsley-core,parsley-spring-boot-autoconfigure,parsley-spring-boot-starter,parsley-spring-boot-starter-test

# name | kind | Spring Boot | Kafka (empty: Boot's) | extra Maven properties | Java | IT broker
ROWS=(
  "default|build|4.0.7|||17|embedded"
  "java25|build|4.0.7|||25|embedded"
  "boot41|build|4.1.2|4.3.1|-Dnetty.version=4.2.18.Final|17|standalone"
  "boot41-java25|build|4.1.2|4.3.1|-Dnetty.version=4.2.18.Final|25|standalone"
  "broker-4.1.2|broker||4.1.2||17|standalone"
  "broker-3.9.1|broker||3.9.1||17|standalone"
  "broker-4.3.1|broker||4.3.1||17|standalone"
  "broker-4.4.0|broker||4.4.0||17|standalone"
)
# Against a standalone broker: the core's ITs but those that start brokers of their own (the secured
# ones), and none of the starter's tests that start an in-JVM broker (all its ITs, some of its Tests).
OWN_BROKER_ITS='!SecuredClusterIT,!SecuredAclsIT,!ClusterCheckIT'
excluded() {  # excluded <dir> <suffix> [grep pattern]: "!Name" for each test class file under dir
  (cd "$ROOT" && find "$1" -name "*$2.java" -path '*/src/test/*' \
    | { if [[ -n "${3:-}" ]]; then xargs -r grep -l -E "$3"; else cat; fi; } \
    | sed -E 's#.*/([^/]+)\.java#!\1#' | sort | paste -sd, -)
}
STARTER_ITS="$(excluded parsley-spring-boot-autoconfigure IT)"
STARTER_BROKER_TESTS="$(excluded parsley-spring-boot-autoconfigure Tests 'EmbeddedKafka|EosBroker|SecuredBroker')"
SELECTED=""
COMPILE_ONLY=0
while [[ $# -gt 0 ]]; do
  case "$1" in
    --rows) SELECTED="$2"; shift ;;
    --compile-only) COMPILE_ONLY=1 ;;
    --list) printf '%s\n' "${ROWS[@]}" | cut -d'|' -f1; exit 0 ;;
    *) echo "unknown option $1" >&2; exit 2 ;;
  esac
  shift
done

log() { echo "[matrix $(date +%H:%M:%S)] $*"; }
mkdir -p "$WORK"
RESULTS="$WORK/results.md"
{
  echo "| Row | Spring Boot | Kafka | Java | IT broker | What ran | Result |"
  echo "|---|---|---|---|---|---|---|"
} > "$RESULTS"
FAILED=0

copy_tree() {
  local dest="$1"
  rm -rf "$dest"
  mkdir -p "$dest"
  (cd "$ROOT" && git ls-files -z --cached --others --exclude-standard \
    | tar --null --ignore-failed-read -T - -cf - 2>/dev/null) | tar -xf - -C "$dest"
}

set_boot() {
  python3 - "$1/pom.xml" "$2" <<'PY'
import re, sys
path, version = sys.argv[1], sys.argv[2]
s = open(path).read()
s, n = re.subn(r'(<artifactId>spring-boot-starter-parent</artifactId>\s*<version>)[^<]+(</version>)',
               r'\g<1>' + version + r'\g<2>', s, count=1)
if n != 1:
    sys.exit("no spring-boot-starter-parent version in " + path)
open(path, 'w').write(s)
PY
}

BROKER_PID=""
stop_broker() {
  if [[ -n "$BROKER_PID" ]] && kill -0 "$BROKER_PID" 2>/dev/null; then
    kill -TERM "$BROKER_PID" 2>/dev/null || true
    for _ in $(seq 1 60); do kill -0 "$BROKER_PID" 2>/dev/null || break; sleep 0.5; done
    kill -KILL "$BROKER_PID" 2>/dev/null || true
    wait "$BROKER_PID" 2>/dev/null || true
  fi
  BROKER_PID=""
}
trap stop_broker EXIT

# start_broker <version> <dir>: a standalone KRaft broker; sets BOOTSTRAP, or returns 1.
start_broker() {
  local version="$1" dir="$2"
  mkdir -p "$dir"
  (cd "$ROOT" && mvn -B -ntp -q "${MVN_EXTRA[@]}" -f parsley-benchmarks/e2e/broker-pom.xml \
    dependency:build-classpath -Dkafka.version="$version" -Dmdep.outputFile="$dir/broker-classpath.txt") \
    > "$dir/broker-resolve.log" 2>&1 || return 1
  local cp port cport
  cp="$(cat "$dir/broker-classpath.txt")"
  read -r port cport < <(python3 -c '
import socket
s = [socket.socket() for _ in range(2)]
for x in s: x.bind(("127.0.0.1", 0))
print(*[x.getsockname()[1] for x in s])')
  rm -rf "$dir/kafka-logs"
  cat > "$dir/server.properties" <<PROPS
process.roles=broker,controller
node.id=1
controller.quorum.voters=1@127.0.0.1:$cport
listeners=PLAINTEXT://127.0.0.1:$port,CONTROLLER://127.0.0.1:$cport
advertised.listeners=PLAINTEXT://127.0.0.1:$port
controller.listener.names=CONTROLLER
inter.broker.listener.name=PLAINTEXT
listener.security.protocol.map=PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT
log.dirs=$dir/kafka-logs
num.partitions=1
offsets.topic.replication.factor=1
offsets.topic.num.partitions=4
transaction.state.log.replication.factor=1
transaction.state.log.min.isr=1
transaction.state.log.num.partitions=4
share.coordinator.state.topic.replication.factor=1
share.coordinator.state.topic.min.isr=1
group.initial.rebalance.delay.ms=0
log.retention.check.interval.ms=1000
PROPS
  local id
  id="$(java -cp "$cp" kafka.tools.StorageTool random-uuid 2>>"$dir/broker.log" | tail -1)"
  java -cp "$cp" kafka.tools.StorageTool format -t "$id" -c "$dir/server.properties" >> "$dir/broker.log" 2>&1 || return 1
  java -Xms512m -Xmx1g -Dorg.slf4j.simpleLogger.defaultLogLevel=info -Dorg.slf4j.simpleLogger.log.kafka.log=warn \
    -Dorg.slf4j.simpleLogger.log.org.apache.kafka.storage=warn -cp "$cp" kafka.Kafka "$dir/server.properties" \
    >> "$dir/broker.log" 2>&1 &
  BROKER_PID=$!
  for _ in $(seq 1 120); do
    if grep -q "Kafka Server started" "$dir/broker.log" 2>/dev/null; then
      BOOTSTRAP="127.0.0.1:$port"
      return 0
    fi
    kill -0 "$BROKER_PID" 2>/dev/null || return 1
    sleep 0.5
  done
  return 1
}

# run_mvn <row dir> <java home> <label> <mvn args...>: appends to the row's build.log.
run_mvn() {
  local dir="$1" jhome="$2" label="$3"
  shift 3
  echo "### $label: mvn $*" >> "$dir/build.log"
  (cd "$dir/src" && JAVA_HOME="$jhome" mvn "$@") >> "$dir/build.log" 2>&1
}

# judge <name> <cells> <what> <log> <mvn exit>: one results row. Tests run with
# maven.test.failure.ignore, so every module is tested; the row passes when Maven succeeded and no
# test failed, and a failed row names its failing test classes.
judge() {
  local name="$1" cells="$2" what="$3" log="$4" rc="$5" totals bad
  totals="$( { grep -E '^\[(INFO|WARNING|ERROR)\] Tests run: [0-9]+, Failures' "$log" || true; } \
    | { grep -v ' in ' || true; } | awk -F'[ ,]+' '{t+=$4; f+=$6+$8} END {print t+0, f+0}')"
  read -r tests failed <<< "$totals"
  bad="$( { grep -oE '<<< (FAILURE|ERROR)! -- in [A-Za-z0-9_.$]+' "$log" || true; } | sed -E 's/.* in //; s/.*\.//' \
    | sort -u | paste -sd, -)"
  if [[ "$rc" == 0 && "$failed" == 0 && "$tests" -gt 0 ]]; then
    echo "| $name | $cells | $what | passed ($tests tests) |" >> "$RESULTS"
    log "$name: passed ($tests tests)"
    return
  fi
  local why="$failed of $tests tests failed${bad:+: $bad}"
  if [[ "$rc" != 0 && "$failed" == 0 ]]; then
    why="$( { grep -E '^\[ERROR\]' "$log" || true; } | head -2 | tr '|' '/' | tr '\n' ' ' | cut -c1-240)"
  fi
  echo "| $name | $cells | $what | **failed**: $why (compat/target/$name/build.log) |" >> "$RESULTS"
  log "$name: FAILED ($why)"
  FAILED=1
}

build_row() {
  local name="$1" boot="$2" kafka="$3" props="$4" java="$5" itbroker="$6"
  local dir="$WORK/$name" jhome="$JAVA17"
  [[ "$java" == 25 ]] && jhome="$JAVA25"
  local cells="$boot | ${kafka:-4.1.2 (managed)} | $java | ${itbroker}"
  [[ -x "$jhome/bin/java" ]] || { echo "| $name | $cells | | no JDK at $jhome |" >> "$RESULTS"; FAILED=1; return; }
  rm -rf "$dir"
  mkdir -p "$dir"
  copy_tree "$dir/src"
  [[ "$boot" != 4.0.7 ]] && set_boot "$dir/src" "$boot"
  local args=(-B -ntp "${MVN_EXTRA[@]}" -pl "$LIBS" -Dparsley.sim.seeds="$SEEDS" -Dmaven.test.failure.ignore=true)
  [[ -n "$kafka" ]] && args+=(-Dkafka.version="$kafka")
  [[ -n "$props" ]] && args+=($props)
  log "$name: Spring Boot $boot, Kafka ${kafka:-managed}, Java $java ($jhome), ITs on a $itbroker broker"
  if [[ $COMPILE_ONLY == 1 ]]; then
    if run_mvn "$dir" "$jhome" "package" "${args[@]}" package -DskipTests; then
      echo "| $name | $cells | package, tests compiled not run | passed (compiled) |" >> "$RESULTS"
      log "$name: passed (compiled)"
    else
      echo "| $name | $cells | package | **failed** (compat/target/$name/build.log) |" >> "$RESULTS"
      log "$name: FAILED"; FAILED=1
    fi
    return
  fi
  local what="verify: unit tests, simulator ($SEEDS seeds a family), ITs on the in-JVM broker"
  if [[ "$itbroker" == standalone ]]; then
    if ! start_broker "${kafka:-4.1.2}" "$dir/broker"; then
      echo "| $name | $cells | | **failed**: the standalone broker did not start (compat/target/$name/broker) |" >> "$RESULTS"
      FAILED=1; stop_broker; return
    fi
    what="verify: unit tests, simulator ($SEEDS seeds a family), the core's ITs on a standalone broker but the secured ones; the starter's tests that start an in-JVM broker skipped"
    args+=(-Dparsley.it.bootstrap="$BOOTSTRAP" "-Dit.test=*IT,$OWN_BROKER_ITS,$STARTER_ITS" -Dit.failIfNoSpecifiedTests=false
      "-Dtest=*Tests,$STARTER_BROKER_TESTS" -Dsurefire.failIfNoSpecifiedTests=false)
  fi
  local rc=0
  run_mvn "$dir" "$jhome" "verify" "${args[@]}" verify || rc=$?
  judge "$name" "$cells" "$what" "$dir/build.log" "$rc"
  stop_broker
}

broker_row() {
  local name="$1" version="$2"
  local dir="$WORK/$name"
  local cells="4.0.7 | 4.1.2 clients, broker $version | 17 | standalone"
  rm -rf "$dir"
  mkdir -p "$dir"
  copy_tree "$dir/src"
  log "$name: the core's ITs, on the build's clients, against a standalone kafka_2.13 $version"
  if ! start_broker "$version" "$dir/broker"; then
    echo "| $name | $cells | | **failed**: the broker did not start (compat/target/$name/broker) |" >> "$RESULTS"
    FAILED=1; stop_broker; return
  fi
  local meta
  meta="$( { grep -oE 'metadata.version [0-9A-Za-z.-]*[0-9A-Za-z]' "$dir/broker/broker.log" || true; } | head -1)"
  local what="the core's ITs but the secured ones (${meta:-metadata version unknown})"
  local rc=0
  run_mvn "$dir" "$JAVA17" "ITs" -B -ntp "${MVN_EXTRA[@]}" -pl parsley-core verify -Dtest=NONE \
    -Dsurefire.failIfNoSpecifiedTests=false -Dmaven.test.failure.ignore=true -Dparsley.it.bootstrap="$BOOTSTRAP" \
    "-Dit.test=*IT,$OWN_BROKER_ITS" || rc=$?
  judge "$name" "$cells" "$what" "$dir/build.log" "$rc"
  stop_broker
}

for row in "${ROWS[@]}"; do
  IFS='|' read -r name kind boot kafka props java itbroker <<< "$row"
  if [[ -n "$SELECTED" && ",$SELECTED," != *",$name,"* ]]; then
    continue
  fi
  if [[ "$kind" == build ]]; then
    build_row "$name" "$boot" "$kafka" "$props" "$java" "$itbroker"
  else
    broker_row "$name" "$kafka"
  fi
done

echo
cat "$RESULTS"
exit $FAILED
