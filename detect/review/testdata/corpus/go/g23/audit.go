// Appends an audit line to a local file: a second run writes it twice.
package main

import (
	"fmt"
	"os"

	"github.com/dapr/durabletask-go/workflow"
)

func AppendAuditLog(ctx workflow.ActivityContext) (any, error) {
	var event string
	if err := ctx.GetInput(&event); err != nil {
		return nil, err
	}
	f, err := os.OpenFile("/var/log/orders/audit.log", os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644) // want: unkeyed-side-effect
	if err != nil {
		return nil, err
	}
	defer f.Close()
	_, err = fmt.Fprintln(f, event)
	return nil, err
}

func main() {
	r := workflow.NewRegistry()
	_ = r.AddActivity(AppendAuditLog)
}
