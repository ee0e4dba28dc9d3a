//go:build dtgo_v0_10

package main

// durabletask-go v0.10.1 is what dapr/cli v1.16.4 is built with (its go.mod).
const (
	dtgoVersion = "v0.10.1"
	cliVersion  = "v1.16.4"
	cli116      = true
)
