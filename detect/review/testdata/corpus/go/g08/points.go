// corpus: negative (already idempotent)
// negative-for: unkeyed-side-effect
// the balance is computed and set,
// not incremented; running twice writes the same value.
package main

import (
	"context"

	"github.com/dapr/durabletask-go/workflow"
	"github.com/redis/go-redis/v9"
)

type Balance struct {
	CustomerID string
	Points     int64
}

var rdb = redis.NewClient(&redis.Options{Addr: "localhost:6379"})

func SetPoints(ctx workflow.ActivityContext) (any, error) {
	var b Balance
	if err := ctx.GetInput(&b); err != nil {
		return nil, err
	}
	if err := rdb.Set(context.Background(), "points:"+b.CustomerID, b.Points, 0).Err(); err != nil {
		return nil, err
	}
	return nil, nil
}

func main() {
	r := workflow.NewRegistry()
	_ = r.AddActivity(SetPoints)
}
