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
# with the row's JAVA_HOME and version properties: unit tests, the simulator over
# COMPAT_SIM_SEEDS seeds per family (default 20: it runs no Kafka code), and every broker IT of the
# core and the starter on an in-JVM broker of the row's Kafka version. Broker rows run
# parsley-benchmarks/e2e.sh with E2E_BROKER_VERSION: the build's clients against a standalone
# kafka_2.13 of that version, one round of the copy and two-source stages; the row passes when every
# run reports nothing missing, nothing duplicated and no order violation.
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

# name | kind | Spring Boot | Kafka (empty: Boot's) | extra Maven properties | Java
ROWS=(
  "default|build|4.0.7|||17"
  "java25|build|4.0.7|||25"
  "boot41|build|4.1.2|4.3.1|-Dnetty.version=4.2.18.Final|17"
  "boot41-java25|build|4.1.2|4.3.1|-Dnetty.version=4.2.18.Final|25"
  "broker-3.9.1|broker||3.9.1||17"
  "broker-4.3.1|broker||4.3.1||17"
  "broker-4.4.0|broker||4.4.0||17"
)
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
  echo "| Row | Spring Boot | Kafka | Java | What ran | Result |"
  echo "|---|---|---|---|---|---|"
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

build_row() {
  local name="$1" boot="$2" kafka="$3" props="$4" java="$5"
  local dir="$WORK/$name" jhome="$JAVA17"
  [[ "$java" == 25 ]] && jhome="$JAVA25"
  [[ -x "$jhome/bin/java" ]] || { echo "| $name | $boot | ${kafka:-managed} | $java | | no JDK at $jhome |" >> "$RESULTS"; FAILED=1; return; }
  copy_tree "$dir/src"
  [[ "$boot" != 4.0.7 ]] && set_boot "$dir/src" "$boot"
  local args=(-B -ntp "${MVN_EXTRA[@]}" -pl "$LIBS" -Dparsley.sim.seeds="$SEEDS")
  [[ -n "$kafka" ]] && args+=(-Dkafka.version="$kafka")
  [[ -n "$props" ]] && args+=($props)
  local goal=(verify) what="verify (tests, ITs; simulator $SEEDS seeds)"
  if [[ $COMPILE_ONLY == 1 ]]; then goal=(package -DskipTests); what="package, tests compiled not run"; fi
  log "$name: Spring Boot $boot, Kafka ${kafka:-managed}, Java $java ($jhome): mvn ${goal[*]}"
  if (cd "$dir/src" && JAVA_HOME="$jhome" mvn "${args[@]}" "${goal[@]}") > "$dir/build.log" 2>&1; then
    local tests
    tests="$( { grep -E '^\[(INFO|WARNING)\] Tests run: [0-9]+, Failures' "$dir/build.log" || true; } \
      | { grep -v ' in ' || true; } | awk -F'[ ,]+' '{t+=$4} END {print t+0}')"
    [[ $COMPILE_ONLY == 1 ]] && tests="compiled" || tests="$tests tests"
    echo "| $name | $boot | ${kafka:-4.1.2 (managed)} | $java | $what | passed ($tests) |" >> "$RESULTS"
    log "$name: passed"
  else
    local why
    why="$( { grep -E '^\[ERROR\]' "$dir/build.log" || true; } | head -3 | tr '|' '/' | tr '\n' ' ' | cut -c1-300)"
    echo "| $name | $boot | ${kafka:-4.1.2 (managed)} | $java | $what | **failed**: $why (compat/target/$name/build.log) |" >> "$RESULTS"
    log "$name: FAILED, see $dir/build.log"
    FAILED=1
  fi
}

broker_row() {
  local name="$1" version="$2"
  local dir="$WORK/$name"
  rm -rf "$dir"
  mkdir -p "$dir"
  log "$name: the build's clients against a standalone kafka_2.13 $version"
  local rc=0
  (cd "$ROOT" && E2E_MVN_FLAGS="${COMPAT_MVN_FLAGS:-}" E2E_BROKER_VERSION="$version" E2E_TIMEOUT=900 \
    parsley-benchmarks/e2e.sh --no-heap -- --variants baseline,parsley,two-source --rounds 1 \
    --records 20000 --warmup 5000) > "$dir/e2e.log" 2>&1 || rc=$?
  cp -f "$ROOT/parsley-benchmarks/target/e2e/broker.log" "$dir/" 2>/dev/null || true
  local runs bad
  local check='missing [0-9]+, dup [0-9]+, order violations [0-9]+'
  runs="$(grep -cE "$check" "$dir/e2e.log" || true)"
  bad="$(grep -oE "$check" "$dir/e2e.log" | grep -v 'missing 0, dup 0, order violations 0' || true)"
  grep -q "broker jar: kafka_2.13-$version.jar" "$dir/e2e.log" || bad="the broker was not kafka_2.13 $version"
  if [[ $rc == 0 && "$runs" -gt 0 && -z "$bad" ]] && ! grep -q 'FAILED' "$dir/e2e.log"; then
    echo "| $name | 4.0.7 | 4.1.2 clients, broker $version | 17 | e2e.sh, $runs runs | passed: nothing missing or duplicated, no order violation |" >> "$RESULTS"
    log "$name: passed ($runs runs)"
  else
    echo "| $name | 4.0.7 | 4.1.2 clients, broker $version | 17 | e2e.sh | **failed** (exit $rc, $runs runs checked${bad:+: $(echo "$bad" | head -1)}; compat/target/$name/e2e.log) |" >> "$RESULTS"
    log "$name: FAILED, see $dir/e2e.log"
    FAILED=1
  fi
}

for row in "${ROWS[@]}"; do
  IFS='|' read -r name kind boot kafka props java <<< "$row"
  if [[ -n "$SELECTED" && ",$SELECTED," != *",$name,"* ]]; then
    continue
  fi
  if [[ "$kind" == build ]]; then
    build_row "$name" "$boot" "$kafka" "$props" "$java"
  else
    broker_row "$name" "$kafka"
  fi
done

echo
cat "$RESULTS"
exit $FAILED
