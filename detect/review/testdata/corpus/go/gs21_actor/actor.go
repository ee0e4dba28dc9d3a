// Books a seat through a seat-map actor: a second run books again.
package main

import (
	"context"

	dapr "github.com/dapr/go-sdk/client"
	"github.com/dapr/go-sdk/workflow"
)

func BookSeat(ctx workflow.ActivityContext) (any, error) {
	var seat string
	if err := ctx.GetInput(&seat); err != nil {
		return nil, err
	}
	c, err := dapr.NewClient()
	if err != nil {
		return nil, err
	}
	if _, err := c.InvokeActor(context.Background(), &dapr.InvokeActorRequest{ActorType: "SeatMap", ActorID: "flight-1", Method: "GetFreeSeats"}); err != nil {
		return nil, err
	}
	_, err = c.InvokeActor(context.Background(), &dapr.InvokeActorRequest{ActorType: "SeatMap", ActorID: "flight-1", Method: "Book", Data: []byte(seat)}) // want: unkeyed-side-effect
	return nil, err
}

func main() {
	w := workflow.NewWorker()
	_ = w.RegisterActivity(BookSeat)
}
