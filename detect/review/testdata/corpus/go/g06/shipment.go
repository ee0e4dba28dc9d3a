// corpus: negative (already idempotent)
// negative-for: check-then-act
// the read is a latency
// optimisation in front of a conditional write; the store decides.
package main

import (
	"database/sql"

	"github.com/dapr/durabletask-go/workflow"
)

var db *sql.DB

func CreateShipment(ctx workflow.ActivityContext) (any, error) {
	var orderID string
	if err := ctx.GetInput(&orderID); err != nil {
		return nil, err
	}
	var id string
	if err := db.QueryRowContext(ctx.Context(), "SELECT id FROM shipments WHERE order_id = $1", orderID).Scan(&id); err == nil {
		return id, nil
	}
	_, err := db.ExecContext(ctx.Context(), "INSERT INTO shipments (order_id, status) VALUES ($1, 'new') ON CONFLICT (order_id) DO NOTHING", orderID)
	if err != nil {
		return nil, err
	}
	err = db.QueryRowContext(ctx.Context(), "SELECT id FROM shipments WHERE order_id = $1", orderID).Scan(&id)
	return id, err
}

func main() {
	r := workflow.NewRegistry()
	_ = r.AddActivity(CreateShipment)
}
