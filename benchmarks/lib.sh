# Sourced by the scripts in benchmarks/: the JDK they run on and the build they share. Not a command.

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
if [ -z "${JAVA_HOME:-}" ] && [ -d /usr/lib/jvm/temurin-25-jdk-amd64 ]; then
  export JAVA_HOME=/usr/lib/jvm/temurin-25-jdk-amd64
fi
java="${JAVA_HOME:+$JAVA_HOME/bin/}java"

# Builds a module and the modules it needs in one reactor, so the class path names the jars just
# built rather than stale installed ones, and writes that class path to <module>/target/classpath.txt.
build() {
  ./mvnw -q -B -ntp -pl "$1" -am package dependency:build-classpath -DskipTests \
    -Dspotless.check.skip=true -Dmaven.javadoc.skip=true -Dmaven.source.skip=true \
    -Dmdep.outputFile=target/classpath.txt
}

# The class path of a built module: its jar first, then its dependencies. A jar rather than
# target/classes, because a JDK AOT cache records only classes that come from jars.
jar_classpath() {
  local jar
  jar="$(find "$1/target" -maxdepth 1 -name '*.jar' ! -name '*-sources.jar' ! -name '*-javadoc.jar' | head -n 1)"
  echo "$jar:$(cat "$1/target/classpath.txt")"
}

# The AOT cache of Baton's scenario program for one scenario.
scenario_cache() {
  echo "benchmarks/target/aot/$1.aot"
}

# The protocol a scenario runs by default: longSession has its own.
default_protocol() {
  if [ "$1" = longSession ]; then echo long; else echo cold; fi
}

# Trains the AOT cache of one scenario with one run of it (JDK 25's one-step workflow: the run
# records, and as it exits the JVM assembles the cache in a child process). Everything it prints
# goes to stderr: it is a training run, not a measurement.
train_scenario_cache() {
  local scenario="$1" cache
  cache="$(scenario_cache "$scenario")"
  mkdir -p "$(dirname "$cache")"
  rm -f "$cache"
  # shellcheck disable=SC2086
  "$java" ${BATON_SCENARIO_JVM:--Xmx2g} -XX:AOTCacheOutput="$cache" -cp "$(jar_classpath benchmarks)" \
    dev.baton.benchmarks.Scenarios "$scenario" "$(default_protocol "$scenario")" >&2
  [ -s "$cache" ] || { echo "no AOT cache was written to $cache" >&2; return 1; }
}

# Runs Baton's scenario program in a fresh JVM: run_baton_scenario <plain|aot> <scenario> <protocol>.
# With "aot" it uses the scenario's cache, and AOTMode=on makes a cache the JVM refuses an error
# rather than a silent run without it, which would be reported as a run with it. Train the cache
# again after every build: it holds the classes of the jars it was trained with. JVM options come
# from BATON_SCENARIO_JVM (default: a 2 GB heap), as for run-scenario and the LangChain4j peer, and
# the training runs take the same ones.
run_baton_scenario() {
  local mode="$1" scenario="$2" protocol="$3" aot=()
  if [ "$mode" = aot ]; then
    aot=(-XX:AOTCache="$(scenario_cache "$scenario")" -XX:AOTMode=on)
  fi
  # shellcheck disable=SC2086
  "$java" ${BATON_SCENARIO_JVM:--Xmx2g} "${aot[@]}" -cp "$(jar_classpath benchmarks)" \
    dev.baton.benchmarks.Scenarios "$scenario" "$protocol"
}
