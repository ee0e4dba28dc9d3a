#!/bin/sh
# Regenerates ../protojson-durabletask-go-*/ and ../dapr-cli-v1.1[67]*/ from
# ../scenarios (run `go test ./detect -run TestRealSourceScenarioBinaries
# -update-realsource` first when the scenarios change). Each durabletask-go
# version builds with its own go.mod; this folder is not part of twice.
set -eu
cd "$(dirname "$0")"
for v in v0_10 v0_11 v0_12; do
	GOFLAGS=-mod=mod go run -modfile="go.$v.mod" -tags "dtgo_$v" .
done
