// Activities as methods of a service struct; the INSERT is in a helper
// method the activity calls.
package main

import (
	"context"
	"database/sql"

	"github.com/dapr/durabletask-go/workflow"
)

type Payments struct{ db *sql.DB }

type Capture struct {
	PaymentID string
	Cents     int64
}

func (p *Payments) record(ctx context.Context, c Capture) error {
	_, err := p.db.ExecContext(ctx, "INSERT INTO captures (payment_id, cents) VALUES (?, ?)", c.PaymentID, c.Cents) // want: unkeyed-side-effect
	return err
}

func (p *Payments) CapturePayment(ctx workflow.ActivityContext) (any, error) {
	var c Capture
	if err := ctx.GetInput(&c); err != nil {
		return nil, err
	}
	return nil, p.record(ctx.Context(), c)
}

func main() {
	p := &Payments{}
	r := workflow.NewRegistry()
	_ = r.AddActivity(p.CapturePayment)
}
