// A NATS JetStream publish whose message id is the current time.
package main

import (
	"fmt"
	"time"

	"github.com/dapr/durabletask-go/workflow"
	"github.com/nats-io/nats.go"
)

var js nats.JetStreamContext

func EmitShipped(ctx workflow.ActivityContext) (any, error) {
	var orderID string
	if err := ctx.GetInput(&orderID); err != nil {
		return nil, err
	}
	msgID := fmt.Sprintf("shipped-%d", time.Now().UnixNano())
	_, err := js.Publish("orders.shipped", []byte(orderID), nats.MsgId(msgID)) // want: key-generated-in-body
	return nil, err
}

func main() {
	r := workflow.NewRegistry()
	_ = r.AddActivity(EmitShipped)
}
