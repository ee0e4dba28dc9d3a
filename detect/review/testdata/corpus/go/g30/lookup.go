// corpus: negative (already idempotent)
// negative-for: unkeyed-side-effect, check-then-act, large-payload
// A read-only lookup: nothing observable.
package main

import (
	"database/sql"
	"encoding/json"
	"net/http"

	"github.com/dapr/durabletask-go/workflow"
)

var db *sql.DB

type Customer struct {
	ID   string `json:"id"`
	Tier string `json:"tier"`
}

func GetCustomerTier(ctx workflow.ActivityContext) (any, error) {
	var id string
	if err := ctx.GetInput(&id); err != nil {
		return nil, err
	}
	var tier string
	if err := db.QueryRowContext(ctx.Context(), "SELECT tier FROM customers WHERE id = $1", id).Scan(&tier); err == nil {
		return tier, nil
	}
	resp, err := http.Get("https://crm.example.com/customers/" + id)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	var c Customer
	if err := json.NewDecoder(resp.Body).Decode(&c); err != nil {
		return nil, err
	}
	return c.Tier, nil
}

func main() {
	r := workflow.NewRegistry()
	_ = r.AddActivity(GetCustomerTier)
}
