// corpus: negative (already idempotent)
// negative-for: unkeyed-side-effect
// a dedupe record keyed by the
// order id is claimed with SETNX before the send.
package main

import (
	"context"
	"fmt"
	"net/smtp"
	"time"

	"github.com/dapr/durabletask-go/workflow"
	"github.com/redis/go-redis/v9"
)

type Receipt struct {
	OrderID string
	Email   string
}

var rdb = redis.NewClient(&redis.Options{Addr: "localhost:6379"})

func SendReceipt(ctx workflow.ActivityContext) (any, error) {
	var r Receipt
	if err := ctx.GetInput(&r); err != nil {
		return nil, err
	}
	first, err := rdb.SetNX(context.Background(), "dedupe:receipt:"+r.OrderID, 1, 30*24*time.Hour).Result()
	if err != nil {
		return nil, err
	}
	if !first {
		return "already sent", nil
	}
	msg := []byte(fmt.Sprintf("Subject: Your order %s\r\n\r\nThanks!", r.OrderID))
	return nil, smtp.SendMail("smtp.example.com:587", nil, "shop@example.com", []string{r.Email}, msg)
}

func main() {
	reg := workflow.NewRegistry()
	_ = reg.AddActivity(SendReceipt)
}
