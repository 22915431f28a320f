#!/usr/bin/env bash
# Scale-out without Docker: the topology of docker-compose.yml on one machine. A KRaft cluster of
# three Kafka brokers (each its own JVM; BROKERS=1 for a single one), two Proofline instances sharing the work (same application id, same key ring, each with its own
# state), then the load generator; then where the partitions went and each agent's score as
# both instances answer it. Everything keeps running until Ctrl-C (or SIGTERM), which stops it all.
#
# usage: scripts/scale-out.sh [--duration S] [--rate N] [--agents K] [--fail-ratio R]
# environment: BROKERS (3), KAFKA_PORT (19092, with BROKERS=1), HTTP_PORT_1 (18080), HTTP_PORT_2 (18082),
#              PARTITIONS (6),
#              SCALE_OUT_DIR (.proofline/scale-out: logs, broker log, keys, Streams state)
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
proofline="$root/proofline"
duration=30 rate=100 agents=8 fail_ratio=0.2
while [ $# -gt 0 ]; do
  case "$1" in
    --duration) duration="$2"; shift 2 ;;
    --rate) rate="$2"; shift 2 ;;
    --agents) agents="$2"; shift 2 ;;
    --fail-ratio) fail_ratio="$2"; shift 2 ;;
    *) echo "scale-out: unknown argument $1" >&2; exit 2 ;;
  esac
done
kafka_port="${KAFKA_PORT:-19092}"
brokers="${BROKERS:-3}"
http=("${HTTP_PORT_1:-18080}" "${HTTP_PORT_2:-18082}")
partitions="${PARTITIONS:-6}"
base="${SCALE_OUT_DIR:-$root/.proofline/scale-out}"
mkdir -p "$base"

pids=()
stop_all() {
  trap - EXIT INT TERM
  if [ ${#pids[@]} -gt 0 ]; then
    echo "scale-out: stopping ${#pids[@]} processes"
    # Instances first (they leave the group cleanly), the broker last.
    for ((i = ${#pids[@]} - 1; i >= 0; i--)); do
      kill "${pids[$i]}" 2>/dev/null || true
      wait "${pids[$i]}" 2>/dev/null || true
    done
  fi
}
trap stop_all EXIT
trap 'exit 130' INT TERM

# start NAME ARGS...: runs ./proofline ARGS in the background, output in $base/NAME.log
start() {
  local name="$1"; shift
  "$proofline" "$@" > "$base/$name.log" 2>&1 &
  pids+=($!)
}

# await NAME PATTERN: until the log shows PATTERN; fails with the log if the process ends first.
await() {
  local name="$1" pattern="$2" pid="${pids[-1]}"
  for _ in $(seq 1 240); do
    if grep -q "$pattern" "$base/$name.log"; then
      grep "$pattern" "$base/$name.log"
      return 0
    fi
    if ! kill -0 "$pid" 2>/dev/null; then
      echo "scale-out: $name stopped before it was ready:" >&2
      tail -20 "$base/$name.log" >&2
      exit 1
    fi
    sleep 0.5
  done
  echo "scale-out: $name not ready after 120 s; see $base/$name.log" >&2
  exit 1
}

# Build the jar once, up front, rather than racing two first uses of ./proofline.
"$proofline" --help > /dev/null

start broker broker --data-dir "$base/broker" --kafka-port "$kafka_port" --brokers "$brokers"
await broker "Kafka broker ready"
bootstrap="$(sed -n 's/^Kafka broker ready: //p' "$base/broker.log" | head -1)"
# Instance 2 uses instance 1's schema registry over its REST API (schema.registry.url), as both
# compose instances use the Confluent registry; instance 1 serves its embedded one.
registry=()
for n in 1 2; do
  start "node-$n" up --bootstrap-servers "$bootstrap" --data-dir "$base/node-$n" \
    --keys-dir "$base/keys" --http-port "${http[$((n - 1))]}" --topics-partitions "$partitions" "${registry[@]}"
  await "node-$n" "Proofline ready"
  registry=(--schema-registry-url "http://127.0.0.1:${http[0]}")
done

"$proofline" load --bootstrap-servers "$bootstrap" --rate "$rate" --duration "$duration" \
  --agents "$agents" --fail-ratio "$fail_ratio" --seed 1 | tee "$base/load.log"
sent="$(sed -n 's/.*sent \([0-9,]*\) requests.*/\1/p' "$base/load.log" | tail -1 | tr -d ,)"

# Scores follow receipts through the KTable's commit (on a replicated cluster, transactions take
# longer): wait until the leaderboard counts every request sent, or stops moving for 10 s.
last="" now="" still=0
for _ in $(seq 1 120); do
  now="$(curl -sf "http://127.0.0.1:${http[0]}/agents?limit=1000" || true)"
  counted="$(printf '%s' "$now" | { grep -o '"total":[0-9]*' || true; } | cut -d: -f2 | awk '{s += $1} END {print s + 0}')"
  [ -n "$sent" ] && [ "${counted:-0}" = "$sent" ] && break
  if [ -n "$now" ] && [ "$now" = "$last" ]; then still=$((still + 1)); else still=0; fi
  [ "$still" -ge 10 ] && break
  last="$now"
  sleep 1
done

echo
for n in 1 2; do
  url="http://127.0.0.1:${http[$((n - 1))]}"
  owned="$(curl -sf "$url/health" | sed -n 's/.*"agent-outputs":\[\([0-9,]*\)\].*/\1/p')"
  echo "instance $n ($url) processes agent-outputs partitions: ${owned:-none}"
done
echo
printf '%-20s %-14s %-14s\n' agent "instance 1" "instance 2"
for k in $(seq 1 "$agents"); do
  agent="$(printf 'invoice-agent-%02d' "$k")"
  scores=()
  for n in 1 2; do
    scores+=("$(curl -sf "http://127.0.0.1:${http[$((n - 1))]}/score/$agent" \
      | sed -n 's/.*"trust_score":\([0-9.]*\).*/\1/p')")
  done
  printf '%-20s %-14s %-14s\n' "$agent" "${scores[0]:-?}" "${scores[1]:-?}"
done
echo
echo "scale-out running: dashboard http://127.0.0.1:${http[0]}/dashboard and http://127.0.0.1:${http[1]}/dashboard;" \
  "Kafka $bootstrap; logs in $base. Ctrl-C stops everything."
wait
