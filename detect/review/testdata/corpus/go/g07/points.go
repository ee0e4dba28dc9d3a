// Adds loyalty points with INCRBY: a second run counts twice.
package main

import (
	"context"

	"github.com/dapr/durabletask-go/workflow"
	"github.com/redis/go-redis/v9"
)

type Award struct {
	CustomerID string
	Points     int64
}

var rdb = redis.NewClient(&redis.Options{Addr: "localhost:6379"})

func AwardPoints(ctx workflow.ActivityContext) (any, error) {
	var a Award
	if err := ctx.GetInput(&a); err != nil {
		return nil, err
	}
	total, err := rdb.IncrBy(context.Background(), "points:"+a.CustomerID, a.Points).Result() // want: unkeyed-side-effect
	if err != nil {
		return nil, err
	}
	return total, nil
}

func main() {
	r := workflow.NewRegistry()
	_ = r.AddActivity(AwardPoints)
}
