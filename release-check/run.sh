#!/usr/bin/env bash
# Release check (docs/releasing.md): deploys the release to a file repository, builds a separate
# application against it by coordinates alone, and starts that application's Spring context.
#
#   release-check/run.sh
#
# Steps, each failing the script (exit non-zero) when it fails:
#   1. mvn -Prelease clean deploy -DskipTests into target/release-repo (the release's own command);
#   2. the repository holds exactly the published artifacts, each with its jar, sources, javadoc and
#      POM, and no sample, benchmark or fault-suite artifact;
#   3. release-check/consumer (not a module of the build) is built with a local repository of its
#      own, so it can only get Parsley from target/release-repo; its @ParsleyTest runs the released
#      stage on TopologyTestDriver, and every Parsley artifact it resolved must name that repository
#      as its origin;
#   4. its jar starts: the Spring context comes up and reports the stage Parsley composed.
#
# RELEASE_CHECK_MVN_FLAGS adds flags to every mvn call (for example -Dgpg.keyname=<id> to sign).
# The deploy runs without -o because maven-deploy-plugin refuses offline mode; with the build's
# dependencies in ~/.m2 it downloads nothing. The consumer's build runs offline when
# RELEASE_CHECK_OFFLINE=1 (file repositories only).
set -euo pipefail

ROOT="$(cd "$(dirname "$0")/.." && pwd)"
CHECK="$ROOT/release-check"
REPO="$ROOT/target/release-repo"
WORK="$CHECK/target"
VERSION=0.1.0
GROUP_PATH=io/github/tobyjamesclements/parsley
PUBLISHED=(parsley-core parsley-spring-boot-autoconfigure parsley-spring-boot-starter parsley-spring-boot-starter-test)
NOT_PUBLISHED=(parsley-benchmarks parsley-faults parsley-sample-orders parsley-sample-post-trade parsley-e2e-broker)
read -r -a EXTRA <<< "${RELEASE_CHECK_MVN_FLAGS:-}"

fail() { echo "release-check: FAILED: $*" >&2; exit 1; }
step() { echo; echo "release-check: $*"; }

rm -rf "$WORK"
mkdir -p "$WORK"

step "1/4 deploy the release to $REPO"
cd "$ROOT"
mvn -B -ntp "${EXTRA[@]}" -Prelease clean deploy -DskipTests \
    -DaltDeploymentRepository="local::file://$REPO" > "$WORK/deploy.log" 2>&1 \
    || { tail -40 "$WORK/deploy.log"; fail "the deploy failed (log: release-check/target/deploy.log)"; }
grep -F "NOT be signed" "$WORK/deploy.log" | sed 's/^\[WARNING\] *\[echo\] /release-check: note: /' || true

step "2/4 check the repository's contents"
[ -f "$REPO/$GROUP_PATH/parsley-parent/$VERSION/parsley-parent-$VERSION.pom" ] || fail "parsley-parent's POM is missing"
for a in "${PUBLISHED[@]}"; do
    for suffix in .pom .jar -sources.jar -javadoc.jar; do
        f="$REPO/$GROUP_PATH/$a/$VERSION/$a-$VERSION$suffix"
        [ -s "$f" ] || fail "missing $a-$VERSION$suffix"
    done
    grep -q "<name>Apache License, Version 2.0</name>" "$REPO/$GROUP_PATH/$a/$VERSION/$a-$VERSION.pom" \
        || grep -q "<artifactId>parsley-parent</artifactId>" "$REPO/$GROUP_PATH/$a/$VERSION/$a-$VERSION.pom" \
        || fail "$a's POM neither names the licence nor inherits it from parsley-parent"
done
grep -q "<name>Apache License, Version 2.0</name>" "$REPO/$GROUP_PATH/parsley-parent/$VERSION/parsley-parent-$VERSION.pom" \
    || fail "parsley-parent's POM names no licence"
for a in "${NOT_PUBLISHED[@]}"; do
    [ ! -e "$REPO/$GROUP_PATH/$a" ] || fail "$a was deployed; it is not a published artifact"
done
echo "release-check: parent + ${#PUBLISHED[@]} artifacts, each with jar, sources, javadoc and POM; nothing else"

step "3/4 build the consumer against the repository (its own local repository: $WORK/m2)"
export RELEASE_CHECK_LOCAL_REPO="$WORK/m2"
export RELEASE_CHECK_RELEASE_REPO_URL="file://$REPO"
export RELEASE_CHECK_CACHE_REPO_URL="file://${HOME}/.m2/repository"
OFFLINE=()
if [ "${RELEASE_CHECK_OFFLINE:-0}" = 1 ]; then
    OFFLINE=(-o -Daether.offline.protocols=file)
fi
(cd "$CHECK/consumer" && mvn -B -ntp "${EXTRA[@]}" "${OFFLINE[@]}" -s "$CHECK/settings.xml" clean package) \
    > "$WORK/consumer-build.log" 2>&1 \
    || { tail -60 "$WORK/consumer-build.log"; fail "the consumer did not build (log: release-check/target/consumer-build.log)"; }
grep -E "Tests run: [0-9]+, Failures: 0, Errors: 0" "$WORK/consumer-build.log" | tail -1
for a in parsley-core parsley-spring-boot-autoconfigure parsley-spring-boot-starter parsley-spring-boot-starter-test parsley-parent; do
    origin="$WORK/m2/$GROUP_PATH/$a/$VERSION/_remote.repositories"
    [ -f "$origin" ] || fail "the consumer did not resolve $a $VERSION"
    grep -q ">parsley-release=" "$origin" || fail "$a $VERSION came from elsewhere than the release repository: $(cat "$origin")"
done
echo "release-check: every Parsley artifact the consumer resolved came from the release repository"

step "4/4 start the consumer"
output="$(cd "$CHECK/consumer" && java -jar target/consumer.jar 2>&1)" \
    || { echo "$output" | tail -40; fail "the consumer did not start"; }
echo "$output" | grep -F "release-check: Spring context started; Parsley stages [notifier]" \
    || { echo "$output" | tail -40; fail "the consumer started without reporting the notifier stage"; }

echo
echo "release-check: PASSED"
