//go:build dtgo_v0_12

package main

import (
	"time"

	"github.com/dapr/durabletask-go/api/protos"
)

// durabletask-go v0.12.1 is what dapr/cli v1.18.0 is built with. Its rows
// are made live by the suite (detect/realsource_cli_test.go, with v0.14.0,
// whose fields the CLI reads are the same): this build writes protojson
// only.
const (
	dtgoVersion = "v0.12.1"
	cliVersion  = ""
)

func cliRows([]*protos.HistoryEvent, string, string, time.Time) ([]byte, error) { return nil, nil }
