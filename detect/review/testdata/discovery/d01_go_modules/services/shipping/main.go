package main

import (
	"github.com/dapr/durabletask-go/workflow"

	"example.com/acme/shipping/labels"
)

func main() {
	r := workflow.NewRegistry()
	_ = r.AddActivity(labels.PrintLabel)
}
