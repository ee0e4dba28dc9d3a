//go:build dtgo_v0_10

package main

import "github.com/dapr/durabletask-go/api/protos"

// stalledRow: v0.10.1 has no ExecutionStalled event, nor CLI v1.16.4 a row
// for it.
func stalledRow(*cliRow, *protos.HistoryEvent) (typ, status string, ok bool) { return "", "", false }

// versionAttrs: CLI v1.16.4 prints no workflow version.
func versionAttrs(*cliRow, *protos.HistoryEvent) {}

// details117 is not reached with v1.16.4 (cli116).
func details117(_, _ *protos.HistoryEvent) *string { return nil }
