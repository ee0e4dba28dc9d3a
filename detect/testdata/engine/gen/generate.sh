#!/bin/sh
# Regenerates ../*.history.json, ../*.instance.json and ../runs.tsv by
# running every scenario on durabletask-go v0.12.1's engine (about 45 s;
# needs only the Go module proxy), then ../*.cli.json, the Dapr CLI
# v1.18.0 rows of each history (detect's reproduction of the CLI). This
# folder is its own module and not part of twice's build. Ids, timestamps
# and the order of one turn's actions change from run to run; the suite's
# verdicts must not (detect/engine_test.go).
set -eu
cd "$(dirname "$0")"
rm -f ../*.history.json ../*.instance.json ../*.cli.json
go run . -out ..
cd ../../../..
go test ./detect -run 'TestEngineCLIRows' -update-engine -count=1
