// Check-then-act: looks the shipment up, returns it when found, else
// inserts. Two attempts can both read "absent".
package main

import (
	"database/sql"
	"errors"

	"github.com/dapr/durabletask-go/workflow"
)

var db *sql.DB

func CreateShipment(ctx workflow.ActivityContext) (any, error) {
	var orderID string
	if err := ctx.GetInput(&orderID); err != nil {
		return nil, err
	}
	var id string
	err := db.QueryRowContext(ctx.Context(), "SELECT id FROM shipments WHERE order_id = $1", orderID).Scan(&id) // want: check-then-act
	if err == nil {
		return id, nil
	}
	if !errors.Is(err, sql.ErrNoRows) {
		return nil, err
	}
	err = db.QueryRowContext(ctx.Context(), "INSERT INTO shipments (order_id, status) VALUES ($1, 'new') RETURNING id", orderID).Scan(&id) // want: unkeyed-side-effect
	return id, err
}

func main() {
	r := workflow.NewRegistry()
	_ = r.AddActivity(CreateShipment)
}
