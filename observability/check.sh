#!/usr/bin/env bash
# Checks the observability kit against a real Prometheus:
#   1. promtool check rules and promtool test rules (prometheus/parsley-rules-test.yml);
#   2. starts samples/orders (its in-process Kafka broker included) with each orders transaction
#      held open for HOLD (20s), so the notifier holds payments for up to that long: the oldest
#      hold's age climbs from 0 to HOLD while one transaction is open, and falls when it commits;
#   3. starts Prometheus scraping the sample's /actuator/prometheus every 2 s, with the rules, the
#      ParsleyHoldStalled threshold lowered from 60 s to 2 s (and its `for` from 1m to 10s) so each
#      transaction's holds stay past it for longer than the `for`;
#   4. waits until /api/v1/alerts shows ParsleyHoldStalled firing;
#   5. runs every query of the Grafana dashboard against that Prometheus (its variables set to
#      match everything, $__rate_interval to 1m): each must be valid PromQL, and the per-topic hold
#      panel must show the notifier's payments held while orders are not; then stops both.
#
# Installs nothing. Needs Java 17, Maven, curl, python3 and Debian's prometheus package
# (`sudo apt-get install -y prometheus`: it brings `prometheus` and `promtool`).
# Usage, from anywhere:  observability/check.sh
# Environment: MVN (default "mvn -B -ntp"; add -o to build offline), APP_PORT (18080),
# PROMETHEUS_PORT (19090), HOLD (20s), TIMEOUT (seconds to wait for each step, 300).
# Exit status 0 when every step passed; the app's and Prometheus' logs are kept in the printed
# work directory.
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
KIT="$ROOT/observability"
MVN=${MVN:-mvn -B -ntp}
APP_PORT=${APP_PORT:-18080}
PROMETHEUS_PORT=${PROMETHEUS_PORT:-19090}
HOLD=${HOLD:-20s}
TIMEOUT=${TIMEOUT:-300}
WORK=$(mktemp -d -t parsley-observability.XXXXXX)
APP_PID=
PROMETHEUS_PID=

say() { printf '%s check.sh: %s\n' "$(date +%H:%M:%S)" "$*"; }
fail() { say "FAILED: $*"; exit 1; }

stop() {
  # each was started in a session of its own: its process group holds Maven and the forked JVM
  if [ -n "$PROMETHEUS_PID" ]; then kill -- "-$PROMETHEUS_PID" 2>/dev/null || true; fi
  if [ -n "$APP_PID" ]; then kill -- "-$APP_PID" 2>/dev/null || true; fi
  wait 2>/dev/null || true
  say "logs kept in $WORK"
}
trap stop EXIT

for tool in promtool prometheus curl java python3; do
  command -v "$tool" >/dev/null || fail "$tool not found; install Debian's prometheus package (sudo apt-get install -y prometheus) for promtool and prometheus"
done
for port in "$APP_PORT" "$PROMETHEUS_PORT"; do
  if curl -s -o /dev/null "http://127.0.0.1:$port/"; then
    fail "port $port is in use; set APP_PORT or PROMETHEUS_PORT to free ports"
  fi
done

# Polls "$1" (a shell condition) every 2 s until it holds, or fails after TIMEOUT seconds naming "$2".
await() {
  local deadline=$((SECONDS + TIMEOUT))
  until eval "$1"; do
    [ "$SECONDS" -lt "$deadline" ] || fail "timed out after ${TIMEOUT}s waiting for $2"
    sleep 2
  done
}

say "promtool check rules"
promtool check rules "$KIT/prometheus/parsley-rules.yml"
say "promtool test rules"
(cd "$KIT/prometheus" && promtool test rules parsley-rules-test.yml)

# The same rules, with the stall alert's threshold lowered so that the sample's holds cross it.
RULES="$WORK/parsley-rules-lowered.yml"
sed -e '/alert: ParsleyHoldStalled/,/alert: ParsleyStageHoldAge/ { s/ > 60000$/ > 2000/; s/for: 1m$/for: 10s/ }' \
  "$KIT/prometheus/parsley-rules.yml" > "$RULES"
grep -q 'parsley_application_records_held_age_max) > 2000' "$RULES" || fail "could not lower ParsleyHoldStalled's threshold in $RULES"
promtool check rules "$RULES"

say "starting samples/orders on port $APP_PORT (orders transactions held open $HOLD); log: $WORK/app.log"
(cd "$ROOT" && exec setsid $MVN -pl samples/orders -am spring-boot:test-run \
  -Dspring-boot.run.arguments="--server.port=$APP_PORT --orders.generator.skew=$HOLD --orders.generator.rate=10" \
  > "$WORK/app.log" 2>&1) &
APP_PID=$!
await "curl -sf -o /dev/null http://127.0.0.1:$APP_PORT/actuator/prometheus || { kill -0 $APP_PID 2>/dev/null || fail 'the sample stopped; see $WORK/app.log'; false; }" \
  "the sample's /actuator/prometheus"
curl -sf "http://127.0.0.1:$APP_PORT/actuator/prometheus" | grep -q '^parsley_application_records_held_age_max' \
  || fail "the sample exports no parsley_application_records_held_age_max"

cat > "$WORK/prometheus.yml" <<EOF
global:
  scrape_interval: 2s
  evaluation_interval: 2s
rule_files:
  - $RULES
scrape_configs:
  - job_name: parsley-orders
    metrics_path: /actuator/prometheus
    static_configs:
      - targets: ["127.0.0.1:$APP_PORT"]
EOF
say "starting Prometheus on port $PROMETHEUS_PORT; log: $WORK/prometheus.log"
setsid prometheus --config.file="$WORK/prometheus.yml" --storage.tsdb.path="$WORK/data" \
  --web.listen-address="127.0.0.1:$PROMETHEUS_PORT" > "$WORK/prometheus.log" 2>&1 &
PROMETHEUS_PID=$!
await "curl -sf -o /dev/null http://127.0.0.1:$PROMETHEUS_PORT/-/ready" "Prometheus to be ready"
await "curl -sf 'http://127.0.0.1:$PROMETHEUS_PORT/api/v1/targets' | grep -q '\"health\":\"up\"'" \
  "Prometheus to scrape the sample"

firing() {
  curl -sf "http://127.0.0.1:$PROMETHEUS_PORT/api/v1/alerts" > "$WORK/alerts.json" || return 1
  tr -d '\n' < "$WORK/alerts.json" | grep -o '{"labels":{[^}]*},"annotations":{[^}]*},"state":"[a-z]*"' \
    | grep '"alertname":"ParsleyHoldStalled"' | grep -q '"state":"firing"'
}
say "waiting for ParsleyHoldStalled to fire"
await firing "ParsleyHoldStalled to fire (alerts: $WORK/alerts.json)"
say "ParsleyHoldStalled is firing:"
cat "$WORK/alerts.json"; echo

# Prints the result type and series count of an instant query, or fails naming the query and the error.
query() {
  curl -s --data-urlencode "query=$1" "http://127.0.0.1:$PROMETHEUS_PORT/api/v1/query" > "$WORK/query.json"
  python3 - "$WORK/query.json" "$1" <<'PY' || fail "dashboard query refused by Prometheus: $1 ($(cat "$WORK/query.json"))"
import json, sys
answer = json.load(open(sys.argv[1]))
if answer.get("status") != "success":
    sys.exit(1)
print(len(answer["data"]["result"]), "series:", sys.argv[2])
PY
}
say "running every dashboard query against Prometheus"
python3 - "$KIT/grafana/parsley-dashboard.json" > "$WORK/dashboard-queries.txt" <<'PY'
import json, sys
for panel in json.load(open(sys.argv[1]))["panels"]:
    for target in panel.get("targets", []):
        print(target["expr"].replace("$application", ".*").replace("$stage", ".*")
              .replace("$__rate_interval", "1m"))
PY
[ -s "$WORK/dashboard-queries.txt" ] || fail "no queries read from the dashboard"
while IFS= read -r q; do query "$q"; done < "$WORK/dashboard-queries.txt"
held_on() {
  query "parsley_topic_records_held_age_max{stage=\"notifier\",topic=\"$1\"} $2" | grep -q '^1 series'
}
await 'held_on payments "> 0" && held_on orders "== 0"' "the per-topic hold panel to show payments held and orders not"
say "the per-topic hold panel shows the notifier's payments held, and its orders not"
say "OK: rules checked and tested; the alert fired against samples/orders; every dashboard query runs"
