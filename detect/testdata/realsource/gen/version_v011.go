//go:build dtgo_v0_11

package main

// durabletask-go v0.11.0 is what dapr/cli v1.17.0 is built with (its go.mod).
const (
	dtgoVersion = "v0.11.0"
	cliVersion  = "v1.17.0"
	cli116      = false
)
